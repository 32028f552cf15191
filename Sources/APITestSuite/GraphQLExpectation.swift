package import APITestSupport

/// What a GraphQL response must hold: a step whose request is `graphql:` fails on a response with a non-empty
/// `errors` unless `expect.graphql.errors` says which errors are expected (then those checks apply instead).
package struct GraphQLExpectation: Sendable, Hashable {
    /// Where `expect.graphql` (or the request's `graphql`) is written.
    package var location: SourceLocation
    /// Whether `errors` is written: the response may (must, per its checks) hold errors.
    package var errorsExpected = false
    /// The checks of `errors`: `count` (`$.errors | count`), `message` and `path` (of the first error).
    package var errors: [Assertion]

    /// An expectation written at `location` with the checks `errors`.
    package init(location: SourceLocation, errors: [Assertion]) {
        self.location = location
        self.errors = errors
    }
}

package import APITestSupport

/// An assertion that did not hold: where it is written, what it checked, what it expected and what it got.
package struct AssertionFailure: Sendable, Hashable, Codable {
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `jsonpath $.users[0].name`.
    package var subject: String
    /// A one-line summary, e.g. `expected status 201, got 400`.
    package var message: String
    package var expected: String?
    package var actual: String?

    package init(
        location: SourceLocation, subject: String, message: String, expected: String? = nil, actual: String? = nil
    ) {
        self.location = location
        self.subject = subject
        self.message = message
        self.expected = expected
        self.actual = actual
    }
}

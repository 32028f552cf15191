import APITestJSON
package import APITestResults
package import APITestSecrets
package import APITestSuite
package import APITestSupport

// MARK: - GraphQL

extension ResponseChecker {
    /// The errors of a GraphQL response: without `expect.graphql.errors`, a non-empty `errors` is a failure
    /// naming the first error's message and path; with it, its checks (`count`, `message`, `path`) instead.
    package func checkGraphQL(
        _ expectation: GraphQLExpectation?, requestLocation: SourceLocation, body: inout ResponseBody,
        context: TemplateContext, masker: SecretMasker
    ) -> [AssertionFailure] {
        if let expectation, expectation.errorsExpected {
            return check(
                Expectations(assertions: expectation.errors), stepLocation: expectation.location, body: &body,
                context: context, masker: masker, requireSuccessStatus: false, listsChecks: false
            ).failures
        }
        let location = expectation?.location ?? requestLocation
        guard case .success(let document) = body.document(), let path = try? JSONPath("$.errors") else {
            return []
        }
        guard case .array(let errors)? = document.query(path).first, !errors.isEmpty else { return [] }
        var first = ""
        if case .object(let members) = errors[0] {
            if let message = members.first(where: { $0.key == "message" })?.value {
                if case .string(let text) = message { first = text } else { first = JSONWriter.string(message) }
            }
            if let place = members.first(where: { $0.key == "path" })?.value {
                first += " (path \(JSONWriter.string(place)))"
            }
        }
        let count = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        return [
            AssertionFailure(
                location: location, subject: "graphql errors",
                text:
                    "the GraphQL response has \(count): \(quoting: first, limit: Self.messageValueLimit) (expect.graphql.errors expects errors)",
                expected: "no errors", actual: JSONWriter.string(.array(errors)))
        ]
    }
}

import APITestHTTP
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestChecks

/// `expect.graphql.errors.count` counts the errors of a GraphQL response; a response without `errors` (GraphQL
/// omits it when there are none) has 0.
@Suite struct GraphQLErrorsCountTests {
    /// The failures of `count` (as written in `errors: {count: ...}`) against a 200 response with `body`.
    func failures(count: String, body: String) throws -> [String] {
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                tests:
                  - name: q
                    request: {url: "http://127.0.0.1:9/graphql", graphql: {query: "{ a }"}}
                    expect: {graphql: {errors: {count: \(count)}}}
                """, file: "s.yaml")
        let step = suite.tests[0].steps[0]
        let response = HTTPResponse(
            statusCode: 200, httpVersion: "1.1", headers: ["Content-Type": "application/json"], body: Data(body.utf8),
            effectiveURL: "http://127.0.0.1:9/graphql")
        var responseBody = ResponseBody(response)
        return ResponseChecker().checkGraphQL(
            step.expect.graphql, requestLocation: step.request.location, body: &responseBody,
            context: TemplateContext(), masker: SecretMasker(secrets: [])
        ).map(\.message)
    }

    @Test func aResponseWithoutErrorsHasNone() throws {
        #expect(try failures(count: "0", body: #"{"data": {"a": 1}}"#) == [])
        #expect(try failures(count: "0", body: #"{"data": {"a": 1}, "errors": null}"#) == [])
        #expect(try failures(count: "0", body: #"{"data": {"a": 1}, "errors": []}"#) == [])
        #expect(try failures(count: "1", body: #"{"data": {"a": 1}}"#).count == 1)
    }

    @Test func errorsAreCounted() throws {
        let two = #"{"data": null, "errors": [{"message": "a"}, {"message": "b"}]}"#
        #expect(try failures(count: "2", body: two) == [])
        #expect(try failures(count: "0", body: two).count == 1)
        #expect(try failures(count: "{greaterThan: 1}", body: two) == [])
        #expect(try failures(count: "1", body: #"{"errors": [{"message": "a"}]}"#) == [])
    }
}

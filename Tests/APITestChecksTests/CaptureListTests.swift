import APITestHTTP
import APITestJSON
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestChecks

/// A capture whose JSONPath can select several nodes (issue 37) takes the list of the nodes it selected (the
/// documented `capture: {ids: {jsonpath: "$[*].id"}}` then `forEach: {items: "{{ ids }}"}`), an empty list when it
/// selected none; a singular path, an XPath node-set and a repeated header keep what they captured before.
@Suite struct CaptureListTests {
    static let location = SourceLocation(file: "s.yaml", line: 4, column: 9)

    /// The captures of `specs` from a response with `body` and `headers`.
    static func capture(
        _ specs: [CaptureSpec], body text: String, headers: HTTPHeaders = ["Content-Type": "application/json"]
    ) -> (context: TemplateContext, captured: [String], failures: [String]) {
        let response = HTTPResponse(
            statusCode: 200, httpVersion: "1.1", headers: headers, body: Data(text.utf8),
            effectiveURL: "http://127.0.0.1/x")
        var body = ResponseBody(response)
        var context = TemplateContext()
        let result = ResponseChecker().capture(
            specs, body: &body, into: &context, masker: SecretMasker(secrets: []))
        return (context, result.captured, result.failures.map(\.message))
    }

    /// A capture by `path` under `name`, with `filters`.
    static func spec(_ name: String, _ path: String, filters: [Filter] = []) throws -> CaptureSpec {
        CaptureSpec(name: name, query: .jsonpath(try JSONPath(path)), filters: filters, location: location)
    }

    @Test func aWildcardCapturesTheListOfItsNodes() throws {
        let result = Self.capture([try Self.spec("ids", "$[*].id")], body: #"[{"id":1},{"id":2}]"#)
        #expect(result.failures.isEmpty)
        #expect(result.captured == ["ids"])
        #expect(try result.context.value(named: "ids") == .array([.integer(1), .integer(2)]))
        #expect(result.context.isJSONTyped("ids"))
    }

    @Test(arguments: [
        ("$..id", "[1,2,3]"), ("$.users[0:2].id", "[1,2]"), ("$.users[?@.id > 1].name", #"["b","c"]"#),
        ("$.users[0,2].id", "[1,3]"), ("$.users[*]", #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]"#),
        ("$.users[?@.id == 2].id", "[2]"),
    ])
    func everyNonSingularPathCapturesAList(_ path: String, _ expected: String) throws {
        let document = #"{"users":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]}"#
        let result = Self.capture([try Self.spec("v", path)], body: document)
        #expect(result.failures.isEmpty)
        #expect(JSONWriter.string(try result.context.value(named: "v")) == expected)
    }

    @Test func aNonSingularPathThatSelectsNothingCapturesAnEmptyList() throws {
        let result = Self.capture([try Self.spec("ids", "$.users[?@.id > 9].id")], body: #"{"users":[{"id":1}]}"#)
        #expect(result.failures.isEmpty)
        #expect(try result.context.value(named: "ids") == .array([]))
    }

    @Test func aSingularPathCapturesItsNodeAndFailsWhenAbsent() throws {
        let document = #"{"users":[{"id":1},{"id":2}],"token":"t"}"#
        let found = Self.capture(
            [try Self.spec("id", "$.users[1].id"), try Self.spec("token", "$.token"), try Self.spec("all", "$.users")],
            body: document)
        #expect(found.failures.isEmpty)
        #expect(try found.context.value(named: "id") == .integer(2))
        #expect(try found.context.value(named: "token") == .string("t"))
        #expect(JSONWriter.string(try found.context.value(named: "all")) == #"[{"id":1},{"id":2}]"#)
        let missing = Self.capture([try Self.spec("id", "$.users[5].id")], body: document)
        #expect(missing.captured.isEmpty)
        #expect(missing.failures == ["capture 'id': $.users[5].id matched nothing"])
    }

    @Test func theFirstFilterKeepsTheFormerFirstNode() throws {
        let document = #"[{"id":7},{"id":8}]"#
        let first = Self.capture([try Self.spec("id", "$[*].id", filters: [.first])], body: document)
        #expect(try first.context.value(named: "id") == .integer(7))
        let none = Self.capture([try Self.spec("id", "$[*].id", filters: [.first])], body: "[]")
        #expect(none.failures == ["capture 'id': $[*].id after its filters matched nothing"])
        let count = Self.capture([try Self.spec("n", "$[*].id", filters: [.count])], body: document)
        #expect(try count.context.value(named: "n") == .integer(2))
    }

    @Test func aRepeatedHeaderStillCapturesItsFirstValue() throws {
        let headers = HTTPHeaders([("X-Id", "a"), ("X-Id", "b")])
        let spec = CaptureSpec(name: "id", query: .header("X-Id"), location: Self.location)
        let result = Self.capture([spec], body: "", headers: headers)
        #expect(try result.context.value(named: "id") == .string("a"))
    }
}

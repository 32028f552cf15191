import APITestHTTP
import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestChecks

/// What a response body's views make of the chain's decoder for it, looked up once: a JSON body read through a
/// tape (members with null values dropped when the json decoder drops them, and then not given to the contract), a
/// property list read as a tree, any other body parsed as JSON only for a JSON check.
@Suite struct ResponseBodyDecoderTests {
    private func response(_ contentType: String?, _ body: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: 200, httpVersion: "1.1", headers: HTTPHeaders(contentType.map { [("Content-Type", $0)] } ?? []),
            body: Data(body.utf8), effectiveURL: "http://127.0.0.1:9/")
    }

    private func query(_ body: inout ResponseBody, _ path: String) throws -> [JSONValue]? {
        try body.document().map { try? $0.query(JSONPath(path)) }.get()
    }

    @Test func aJSONBodyIsATapeGivenToTheContractAsReceived() throws {
        var body = ResponseBody(response("application/json; charset=utf-8", #"{"a": null, "b": 1}"#))
        let bodyTree = body.decodesIntoTree
        #expect(!bodyTree)
        #expect(try query(&body, "$.a") == [.null])
        let bodyTape = body.tapeAsReceived()
        #expect(bodyTape != nil)
    }

    @Test func theJSONDecodersNullsAreDroppedAndTheTapeIsNotTheBodyAsReceived() throws {
        let chain = ResponseSerializerChain(order: [.json, .text], removesKeysWithNullValues: true)
        var body = ResponseBody(response("application/problem+json", #"{"a": null, "b": 1}"#), chain: chain)
        #expect(try query(&body, "$.a") == [])
        #expect(try query(&body, "$.b") == [1])
        let bodyTape = body.tapeAsReceived()
        #expect(bodyTape == nil)
        // A body no json decoder takes is parsed with the suite's setting.
        var text = ResponseBody(
            response("text/plain", #"{"a": null}"#), chain: .standard, removesKeysWithNullValues: true)
        #expect(try query(&text, "$.a") == [])
        let textTape = text.tapeAsReceived()
        #expect(textTape == nil)
    }

    @Test func aPropertyListIsATreeAndTextIsNotJSON() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><integer>7</integer></dict></plist>
            """
        var propertyList = ResponseBody(response("application/x-plist", plist))
        let readAsTree = propertyList.decodesIntoTree
        #expect(readAsTree)
        #expect(try query(&propertyList, "$.a") == [7])
        let propertyListTape = propertyList.tapeAsReceived()
        #expect(propertyListTape == nil)

        var text = ResponseBody(response("text/plain", "hello"))
        let textTree = text.decodesIntoTree
        #expect(!textTree)
        let decoded = try text.text().get()
        #expect(decoded == "hello")
        guard case .failure(let problem) = text.document() else {
            Issue.record("text read as JSON")
            return
        }
        #expect(problem.text.hasSuffix("the body was decoded as text (Content-Type text/plain))"))
    }

    /// `singularValue(_:)`, the shortcut a singular JSONPath check takes, gives the document's first node and the
    /// same problems, asked first or after the document (made once either way): a tape with nulls kept or dropped,
    /// a property list's tree, text, invalid JSON, an empty body and a body that was only streamed.
    @Test func aSingularValueIsTheDocumentsFirstNode() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><integer>7</integer></dict></plist>
            """
        var streamed = response("application/json", #"{"a": 1}"#)
        streamed.bodyIsComplete = false
        let dropping = ResponseSerializerChain(order: [.json, .text], removesKeysWithNullValues: true)
        let cases: [(HTTPResponse, ResponseSerializerChain)] = [
            (response("application/json", #"{"a": null, "b": [1, {"é": "ü\n"}], "a\"b": true}"#), .standard),
            (response("application/json", #"{"a": null, "b": [1, {"é": "ü\n"}]}"#), dropping),
            (response("application/x-plist", plist), .standard), (response("text/plain", "hello"), .standard),
            (response("application/json", #"{"a": 1,}"#), .standard), (response("application/json", ""), .standard),
            (response("application/json", "[]"), .standard), (streamed, .standard),
        ]
        let paths = ["$", "$.a", "$.b[1]['é']", "$.b[-2]", "$.b[5]", #"$['a"b']"#, "$.missing", "$[0]"]
        for (received, chain) in cases {
            for expression in paths {
                let path = try JSONPath(expression)
                var slow = ResponseBody(received, chain: chain)
                let expected = slow.document().map { $0.query(path).first }
                var fast = ResponseBody(received, chain: chain)
                let first = fast.singularValue(path)
                let afterDocument = slow.singularValue(path)
                for got in [first, afterDocument] {
                    switch (got, expected) {
                    case (.success(let value), .success(let wanted)): #expect(value == wanted, "\(expression)")
                    case (.failure(let problem), .failure(let wanted)): #expect(problem.text == wanted.text)
                    default: Issue.record("\(expression): \(got) against \(expected)")
                    }
                }
            }
        }
    }

    @Test func aBodyNoDecoderTakesIsParsedAsJSONOnlyForAJSONCheck() throws {
        var body = ResponseBody(response("text/plain", #"{"a": 2}"#), chain: ResponseSerializerChain(order: [.json]))
        let bodyTree = body.decodesIntoTree
        #expect(!bodyTree)
        #expect(try query(&body, "$.a") == [2])
    }
}

import APITestJSON
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct JSONResponseSerializerTests {
    let body = #"{"a": 1, "b": null, "c": {"d": null, "e": [1, null, {"f": null, "g": "x"}]}, "h": [null]}"#

    @Test func keepsNullsByDefault() throws {
        let decoded = try JSONResponseSerializer().decode(
            ResponseFixtures.response(body, contentType: "application/json"))
        guard case .json(let value) = decoded else {
            Issue.record("not JSON: \(decoded)")
            return
        }
        #expect(value == (try JSONParser.parse(body)))
        #expect(value["b"] == .null)
        #expect(value["c"]?["d"] == .null)
    }

    @Test func dropsKeysWithNullValuesAtEveryDepth() throws {
        let serializer = JSONResponseSerializer(removesKeysWithNullValues: true)
        let decoded = try serializer.decode(ResponseFixtures.response(body, contentType: "application/json"))
        guard case .json(let value) = decoded else {
            Issue.record("not JSON: \(decoded)")
            return
        }
        // Members with null values go, nulls inside arrays stay (AFNetworking's behaviour).
        let expected = try JSONParser.parse(#"{"a": 1, "c": {"e": [1, null, {"g": "x"}]}, "h": [null]}"#)
        #expect(value == expected)
        #expect(value.objectValue?.keys == ["a", "c", "h"])
        #expect(value["c"]?.objectValue?.keys == ["e"])
    }

    @Test func malformedJSONNamesLineColumnAndByte() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": 2 \"c\": 3\n}"
        let error = try #require(
            ResponseFixtures.decodeError(
                JSONResponseSerializer(), ResponseFixtures.response(text, contentType: "application/json")))
        #expect(error.decoder == "json")
        #expect(error.line == 3)
        #expect(error.column == 10)
        #expect(error.byteOffset == 21)
        #expect(error.reason.contains("expected ',' or '}'"))
        #expect(error.description.hasPrefix("json decoder: line 3, column 10 (byte 21): expected ',' or '}'"))
    }

    @Test func emptyBodyIsAnError() throws {
        let error = try #require(
            ResponseFixtures.decodeError(
                JSONResponseSerializer(), ResponseFixtures.response("", contentType: "application/json")))
        #expect(error.byteOffset == 0)
        #expect(error.reason.contains("end of input"))
    }

    @Test func acceptedContentTypes() {
        let serializer = JSONResponseSerializer()
        for type in [
            "application/json", "application/json; charset=utf-8", "application/problem+json", "text/json",
            "Application/JSON",
        ] {
            #expect(serializer.accepts(ResponseFixtures.response("{}", contentType: type)), "\(type)")
        }
        for type in ["text/plain", "application/xml", "application/jsonx", "+json"] {
            #expect(!serializer.accepts(ResponseFixtures.response("{}", contentType: type)), "\(type)")
        }
        // Without Content-Type, a body that opens an object or array is taken; anything else is not.
        #expect(serializer.accepts(ResponseFixtures.response(" \n[1]")))
        #expect(!serializer.accepts(ResponseFixtures.response("hello")))
        #expect(!serializer.accepts(ResponseFixtures.response("")))
    }
}

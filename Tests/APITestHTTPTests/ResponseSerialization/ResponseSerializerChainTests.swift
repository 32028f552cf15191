import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct ResponseSerializerChainTests {
    func decoderName(_ chain: ResponseSerializerChain, _ response: HTTPResponse) -> String? {
        chain.serializer(for: response)?.name
    }

    @Test func standardChainPicksByContentType() {
        let chain = ResponseSerializerChain.standard
        #expect(chain.serializers.map(\.name) == ["json", "xml", "plist", "image", "text", "binary"])
        let cases: [(String?, Data, String)] = [
            ("application/json", Data("{}".utf8), "json"),
            ("application/problem+json", Data("{}".utf8), "json"),
            ("text/xml; charset=utf-8", Data("<a/>".utf8), "xml"),
            ("application/atom+xml", Data("<a/>".utf8), "xml"),
            ("application/x-plist", Data("<plist/>".utf8), "plist"),
            ("image/png", Data(TestImages.png(width: 1, height: 1)), "image"),
            ("text/plain", Data("hi".utf8), "text"),
            ("text/html; charset=utf-8", Data("<p>".utf8), "text"),
            ("application/octet-stream", Data([0, 1, 2]), "binary"),
            ("application/pdf", Data("%PDF".utf8), "binary"),
            // Without Content-Type: sniffed where the bytes say so, else binary.
            (nil, Data("[1, 2]".utf8), "json"),
            (nil, Data("<?xml version=\"1.0\"?><a/>".utf8), "xml"),
            (nil, Data("bplist00".utf8), "plist"),
            (nil, Data(TestImages.gif(width: 1, height: 1)), "image"),
            (nil, Data("hello".utf8), "binary"),
            // Sniffing is strict enough not to claim look-alike text.
            (nil, Data("BMW and other cars, a long enough text".utf8), "binary"),
            ("application/octet-stream", Data(TestImages.bmp(width: 2, height: 2)), "image"),
            ("text/plain", Data("bplist00 is how binary property lists start".utf8), "text"),
            ("application/octet-stream", Data("bplist00".utf8), "plist"),
        ]
        for (type, body, expected) in cases {
            #expect(
                decoderName(chain, ResponseFixtures.response(body, contentType: type)) == expected, "\(type ?? "none")")
        }
    }

    @Test func orderIsConfigurable() throws {
        // text before json: a JSON body sent as text/json now decodes as text.
        let response = ResponseFixtures.response(#"{"a": null}"#, contentType: "text/json")
        let textFirst = ResponseSerializerChain(order: [.text, .json, .binary])
        #expect(textFirst.serializers.map(\.name) == ["text", "json", "binary"])
        guard case .success(.text(let text)) = textFirst.decode(response) else {
            Issue.record("expected text")
            return
        }
        #expect(text == #"{"a": null}"#)

        let jsonFirst = ResponseSerializerChain(order: [.json, .text], removesKeysWithNullValues: true)
        guard case .success(.json(let value)) = jsonFirst.decode(response) else {
            Issue.record("expected JSON")
            return
        }
        #expect(value == .object(JSONObject()))
    }

    @Test func aRepeatedNameAddsNothing() {
        let chain = ResponseSerializerChain(order: [.json, .text, .json])
        #expect(chain.serializers.map(\.name) == ["json", "text"])
        #expect(
            ResponseSerializerChain.standard.serializers.map(\.name) == ResponseDecoderName.allCases.map(\.rawValue))
    }

    @Test func noAcceptingDecoderIsAnError() throws {
        let chain = ResponseSerializerChain(order: [.json, .xml])
        let result = chain.decode(ResponseFixtures.response("hello", contentType: "text/plain"))
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(
            error.description
                == "response serializer chain: no decoder accepts a response with content type 'text/plain' (decoders: json, xml)"
        )
    }

    @Test func failureComesFromTheChosenDecoder() {
        // A broken JSON body is the JSON decoder's error, not a fall-through to text or binary.
        let result = ResponseSerializerChain.standard.decode(
            ResponseFixtures.response("{\"a\": }", contentType: "application/json"))
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.description == "json decoder: line 1, column 7 (byte 6), at /a: expected a value, found '}'")
    }

    @Test func binaryAndDecodedBodyAccessors() throws {
        let bytes = Data([0, 0xFF, 7])
        guard case .success(let body) = ResponseSerializerChain.standard.decode(ResponseFixtures.response(bytes)) else {
            Issue.record("binary failed")
            return
        }
        #expect(body.decoderName == "binary")
        guard case .binary(let data) = body else {
            Issue.record("not binary")
            return
        }
        #expect(data == bytes)
        #expect(body.jsonValue == nil)
        let json = ResponseSerializerChain.standard.decode(
            ResponseFixtures.response("[1]", contentType: "application/json"))
        #expect((try? json.get())?.jsonValue == [1])
    }

    @Test func acceptableStatusCodes() {
        #expect(ResponseSerializerChain.validate(statusCode: 200))
        #expect(ResponseSerializerChain.validate(statusCode: 299))
        #expect(!ResponseSerializerChain.validate(statusCode: 304))
        #expect(!ResponseSerializerChain.validate(statusCode: 199))
        #expect(ResponseSerializerChain.validate(statusCode: 404, acceptable: IndexSet([404, 410])))
    }

    @Test func mediaTypePatterns() {
        #expect(MediaTypePattern.matches("application/problem+json", pattern: "+json"))
        #expect(!MediaTypePattern.matches("application/json", pattern: "+json"))
        #expect(MediaTypePattern.matches("TEXT/Plain; charset=x", pattern: "text/*"))
        #expect(!MediaTypePattern.matches("textual/plain", pattern: "text/*"))
        #expect(MediaTypePattern.matches("anything/else", pattern: "*/*"))
        #expect(!MediaTypePattern.matches("", pattern: "*/*"))
        #expect(MediaTypePattern.charset(of: "text/plain; format=flowed; charset=\"ISO-8859-1\"") == "iso-8859-1")
        #expect(MediaTypePattern.charset(of: "text/plain") == nil)
    }
}

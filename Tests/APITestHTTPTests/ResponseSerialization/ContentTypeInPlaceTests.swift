import Foundation
import Testing

@testable import APITestHTTP

/// A serializer asks whether it accepts a response's `Content-Type` by reading a received value in place when its
/// essence is one of the patterns byte for byte, and through `HTTPResponse.mediaType` otherwise; both must answer
/// as `mediaType` alone does, which headers held as a list of fields still use.
@Suite struct ContentTypeInPlaceTests {
    /// Header blocks as received: a `Content-Type` of every shape, none, folded, repeated, after a line without a
    /// colon, in bytes that are not UTF-8.
    private static let blocks: [[UInt8]] =
        [
            "Content-Type: application/json\n", "content-type:application/json; charset=utf-8\n",
            "Content-Type:  Application/JSON \n", "Content-Type: application/problem+json\n", "Content-Type: +json\n",
            "Content-Type: text/json;x=1\n", "Content-Type: text/javascript\n", "Content-Type: text/html\n",
            "Content-Type: text/plain\n", "Content-Type: application/xml\n", "Content-Type: text/xml; charset=x\n",
            "Content-Type: application/x-plist\n", "Content-Type: image/png\n", "Content-Type: \n",
            "Content-Type: ;charset=utf-8\n", "Content-Type: \t ; x\n", "Server: x\n", "",
            "Content-Type: application/\n json\n", "Content-Type: application\nno colon\n\t/json\n",
            "Content-Type: application/json\n  \n", "Content-Type: text/html\nContent-Type: application/json\n",
            "Content-Type: application/jsön\n", "Content-Type: application/json\u{301}\n",
            "X-Content-Type: application/json\nContent-Type: text/plain\n", "Content-Typ: application/json\n",
        ].map { Array($0.utf8) } + [
            Array("Content-Type: application/json".utf8) + [0xFF] + Array("\n".utf8),
            Array("Content-Type: appl".utf8) + [0xC3] + Array("ication/json; x\n".utf8),
        ]

    /// The serializers of the standard chain, and JSON ones with other patterns.
    private static let serializers: [any ResponseSerializer] =
        ResponseSerializerChain.standard.serializers + [
            JSONResponseSerializer(acceptableContentTypes: ["application/json"]),
            JSONResponseSerializer(acceptableContentTypes: ["+json", "text/*"]),
            JSONResponseSerializer(acceptableContentTypes: ["*/*"]),
            JSONResponseSerializer(acceptableContentTypes: ["Application/JSON", "application/json\u{301}"]),
            JSONResponseSerializer(acceptableContentTypes: []),
            JSONResponseSerializer(acceptableContentTypes: nil),
        ]

    private func response(_ headers: HTTPHeaders, body: String) -> HTTPResponse {
        HTTPResponse(statusCode: 200, httpVersion: "1.1", headers: headers, body: Data(body.utf8), effectiveURL: "")
    }

    @Test func acceptsAsTheListOfFieldsDoes() {
        for block in Self.blocks {
            let received = HTTPHeaders(fieldLines: block)
            let listed = HTTPHeaders(ReceivedFieldLines.fields(of: block))
            for body in ["{\"a\": 1}", "<a/>", ""] {
                for serializer in Self.serializers {
                    #expect(
                        serializer.acceptsContentType(of: response(received, body: body))
                            == serializer.acceptsContentType(of: response(listed, body: body)),
                        "\(serializer.name) \(String(decoding: block, as: UTF8.self))")
                    #expect(
                        serializer.accepts(response(received, body: body))
                            == serializer.accepts(response(listed, body: body)),
                        "\(serializer.name) \(String(decoding: block, as: UTF8.self))")
                }
            }
        }
    }

    @Test func aReceivedValueIsReadInPlaceUnlessFolded() {
        func inPlace(_ block: String, _ name: String = "Content-Type") -> String?? {
            HTTPHeaders(fieldLines: Array(block.utf8)).withReceivedValue(named: name) { value in
                value.map { String(decoding: $0, as: UTF8.self) }
            }
        }
        #expect(inPlace("A: 1\nContent-Type:  text/html \nB: 2\n") == .some("text/html"))
        #expect(inPlace("content-type: a\nContent-Type: b\n") == .some("a"))
        #expect(inPlace("A: 1\n") == .some(nil))
        #expect(inPlace("Content-Type: a\n b\n") == nil)
        #expect(inPlace("Content-Type: a\nno colon\n\tb\n") == nil)
        #expect(inPlace("Ü: a\n", "Ü") == nil)
        let listed: HTTPHeaders = ["Content-Type": "text/html"]
        #expect(listed.withReceivedValue(named: "Content-Type") { _ in 1 } == nil)
        // What is read in place is what the lookup finds.
        for block in Self.blocks {
            let headers = HTTPHeaders(fieldLines: block)
            let read = headers.withReceivedValue(named: "Content-Type") {
                $0.map { String(decoding: $0, as: UTF8.self) }
            }
            if let value = read {
                #expect(value == headers["Content-Type"])
            }
        }
    }

    @Test func theEssenceOfBytesIsTheEssenceOfTheirText() {
        for text in ["application/json", " text/html ; x", "Text/HTML", "a/b;", "", " ;", "ü/x", "+json"] {
            let essence = Array(text.utf8).withUnsafeBufferPointer { bytes in
                MediaTypePattern.lowerCaseASCIIEssence(of: bytes).map { String(decoding: $0, as: UTF8.self) }
            }
            // Only an essence with capitals or bytes beyond ASCII needs the text (its case mapped).
            #expect((essence == nil) == ["Text/HTML", "ü/x"].contains(text), "\(text)")
            if let essence { #expect(essence == MediaTypePattern.essence(of: text), "\(text)") }
        }
    }
}

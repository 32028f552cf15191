import Foundation
import Testing

@testable import APITestHTTP

/// The pieces of the gRPC transport that need no server: the 5-byte message framing read as bytes arrive, the
/// `grpc-timeout` value, `grpc-message` decoding, the status fields, and the metadata rules.
@Suite struct GRPCFramingTests {
    /// Feeds `body` to a decoder in pieces of `chunk` bytes and returns the messages and the decoder.
    static func decode(
        _ body: Data, chunk: Int, limit: Int = 1 << 20
    ) throws -> ([Data], GRPCMessageDecoder) {
        var decoder = GRPCMessageDecoder(limit: limit)
        var messages: [Data] = []
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunk)
            let piece = body.subdata(in: offset..<end)
            let goOn = try piece.withUnsafeBytes { bytes in
                try decoder.feed(bytes) { message in
                    messages.append(message)
                    return true
                }
            }
            #expect(goOn)
            offset = end
        }
        return (messages, decoder)
    }

    static let sample = [Data("first".utf8), Data(), Data(count: 70_000), Data([0xFF])]

    @Test(arguments: [1, 2, 3, 5, 6, 7, 4096, 1 << 20])
    func messagesSplitAcrossReadsOrSeveralInOneReadAllArrive(chunk: Int) throws {
        let (messages, decoder) = try Self.decode(GRPCMessageDecoder.frame(Self.sample), chunk: chunk)
        #expect(messages == Self.sample)
        #expect(decoder.count == Self.sample.count)
        try decoder.finish()
    }

    @Test func theFrameIsAFlagAndABigEndianLength() {
        #expect(Array(GRPCMessageDecoder.frame([Data("hi".utf8)])) == [0, 0, 0, 0, 2, 0x68, 0x69])
        #expect(Array(GRPCMessageDecoder.frame([Data(count: 0x010203)]).prefix(5)) == [0, 0, 1, 2, 3])
        #expect(GRPCMessageDecoder.frame([]).isEmpty)
    }

    @Test func aLengthAboveTheLimitIsAnErrorBeforeAnyAllocation() {
        // A prefix announcing 4 GiB - 1 with no body: refused from the prefix alone.
        let body = Data([0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: GRPCError(.messageTooLarge(length: 0xFFFF_FFFF, limit: 4 << 20))) {
            _ = try Self.decode(body, chunk: 5, limit: 4 << 20)
        }
    }

    @Test func aCompressedOrUnknownFlagIsAnError() {
        #expect(throws: GRPCError(.unsupportedMessageFlag(1))) {
            _ = try Self.decode(Data([1, 0, 0, 0, 1, 9]), chunk: 6)
        }
        #expect(throws: GRPCError(.unsupportedMessageFlag(0x80))) {
            _ = try Self.decode(Data([0x80, 0, 0, 0, 0]), chunk: 6)
        }
    }

    @Test func aBodyEndingInsideAMessageIsTruncated() throws {
        let (_, inPrefix) = try Self.decode(Data([0, 0, 0]), chunk: 3)
        #expect(throws: GRPCError(.truncatedMessage(received: 3, expected: 5))) { try inPrefix.finish() }
        let (_, inBody) = try Self.decode(Data([0, 0, 0, 0, 4, 1, 2]), chunk: 7)
        #expect(throws: GRPCError(.truncatedMessage(received: 7, expected: 9))) { try inBody.finish() }
    }

    @Test func aReaderThatStopsEndsTheFeed() throws {
        var decoder = GRPCMessageDecoder(limit: 100)
        var seen = 0
        let goOn = try GRPCMessageDecoder.frame(Self.sample.prefix(2).map { $0 }).withUnsafeBytes { bytes in
            try decoder.feed(bytes) { _ in
                seen += 1
                return false
            }
        }
        #expect(!goOn)
        #expect(seen == 1)
    }

    @Test func theTimeoutUsesTheCoarsestExactUnitInEightDigits() {
        #expect(GRPCTimeout.headerValue(for: .milliseconds(1500)) == "1500m")
        #expect(GRPCTimeout.headerValue(for: .seconds(90)) == "90S")
        #expect(GRPCTimeout.headerValue(for: .seconds(7200)) == "2H")
        #expect(GRPCTimeout.headerValue(for: .seconds(120)) == "2M")
        #expect(GRPCTimeout.headerValue(for: .nanoseconds(1_500)) == "1500n")
        // 12345678.9 ms has no exact unit in eight digits: the finest that holds it, rounded up.
        #expect(GRPCTimeout.headerValue(for: .nanoseconds(12_345_678_900_001)) == "12345679m")
        #expect(GRPCTimeout.headerValue(for: .nanoseconds(123_456_789_500_001)) == "123457S")
        #expect(GRPCTimeout.headerValue(for: .zero) == "1n")
        #expect(GRPCTimeout.headerValue(for: .seconds(1_000_000_000)) == "16666667M")
    }

    @Test func theStatusMessageIsPercentDecodedAsUTF8() {
        #expect(GRPCStatus.percentDecoded("plain") == "plain")
        #expect(GRPCStatus.percentDecoded("100%25 done") == "100% done")
        #expect(GRPCStatus.percentDecoded("%C3%BCn%C3%AFcode") == "\u{FC}n\u{EF}code")
        #expect(GRPCStatus.percentDecoded("bad %zz and %4") == "bad %zz and %4")
        #expect(GRPCStatus.percentDecoded("%FF") == "\u{FFFD}")
    }

    @Test func theStatusFieldsAreRead() {
        let fields: HTTPHeaders = [
            "grpc-status": "5", "grpc-message": "not%20here", "grpc-status-details-bin": "AAFkZXRhaWxz_w",
        ]
        let status = GRPCStatus.read(from: fields)
        #expect(
            status
                == GRPCStatus(
                    .notFound, message: "not here", details: Data([0, 1]) + Data("details".utf8) + Data([0xFF])))
        #expect(GRPCStatus.read(from: ["grpc-status": "42"])?.rawCode == 42)
        #expect(GRPCStatus.read(from: ["grpc-status": "42"])?.codeName == "42")
        #expect(GRPCStatus.read(from: ["grpc-status": "x1"])?.code == .unknown)
        #expect(GRPCStatus.read(from: ["content-type": "application/grpc"]) == nil)
        #expect(GRPCStatus.Code(name: "not_found") == .notFound)
        #expect(GRPCStatus.Code.allCases.map(\.rawValue) == Array(0...16))
    }

    @Test func metadataKeysAndValuesAreCheckedAndBinaryGoesInBase64() throws {
        var metadata = GRPCMetadata()
        metadata.add("X-Trace", .text("abc"))
        metadata.add("trace-bin", .binary(Data([0xFB, 0xFF])))
        #expect(try metadata.requestFields().map { "\($0.0): \($0.1)" } == ["x-trace: abc", "trace-bin: +/8="])
        for (key, problem) in [
            ("", GRPCError.MetadataProblem.emptyKey), ("a b", .invalidKeyCharacter), ("te", .reservedKey),
            ("grpc-timeout", .reservedKey), (":path", .invalidKeyCharacter), ("content-type", .reservedKey),
        ] {
            let bad = GRPCMetadata([.init(key: key, value: .text("v"))])
            #expect(throws: GRPCError(.invalidMetadata(key: key, problem: problem))) { try bad.requestFields() }
        }
        let binary = GRPCMetadata([.init(key: "x", value: .binary(Data([1])))])
        #expect(throws: GRPCError(.invalidMetadata(key: "x", problem: .binaryWithoutBinSuffix))) {
            try binary.requestFields()
        }
        let response = GRPCMetadata(responseFields: [
            "content-type": "application/grpc", "grpc-status": "0", "x-a": "1", "x-b-bin": "AQI", "x-c-bin": "!!",
        ])
        #expect(
            response.entries == [
                .init(key: "x-a", value: .text("1")), .init(key: "x-b-bin", value: .binary(Data([1, 2]))),
                .init(key: "x-c-bin", value: .text("!!")),
            ])
    }

    @Test func aMethodPathHasTwoSegments() throws {
        #expect(GRPCCallDescription.isMethodPath("/pkg.Service/Method"))
        for bad in ["", "/", "pkg.S/M", "/pkg.S/", "//M", "/a/b/c", "/a b/c", "/a/b?x"] {
            #expect(!GRPCCallDescription.isMethodPath(bad), "\(bad)")
        }
        let call = GRPCCallDescription(baseURL: "ftp://h", path: "/a/b", messages: [])
        #expect(throws: GRPCError(.invalidURL("ftp://h"))) { try call.url() }
        let ok = GRPCCallDescription(baseURL: "https://h:8443/prefix/", path: "/a.B/C", messages: [])
        #expect(try ok.url() == "https://h:8443/prefix/a.B/C")
    }
}

import Testing

@testable import APITestTelemetry

/// A step's URL as span attributes: credentials in the user information and signature parameters redacted as the
/// semantic conventions say, the rest (already masked by the sealing point) left as it is; the server's address and
/// port, the scheme's default port when none is written.
@Suite struct TelemetryURLTests {
    private func attribute(_ key: String, of url: String) -> TelemetrySpan.Value? {
        TelemetryURL.attributes(of: url).first { $0.key == key }?.value
    }

    @Test func credentialsAndSignaturesAreRedacted() {
        #expect(
            attribute("url.full", of: "https://user:pa55@api.test/items?id=1")
                == .string("https://REDACTED:REDACTED@api.test/items?id=1"))
        #expect(
            attribute("url.full", of: "https://s3.test/b/k?AWSAccessKeyId=AKIA1&Signature=abc%2B&x=1")
                == .string("https://s3.test/b/k?AWSAccessKeyId=REDACTED&Signature=REDACTED&x=1"))
    }

    @Test func aMaskedURLIsLeftAsItIs() {
        let masked = "http://127.0.0.1:8080/items?token=•••••"
        #expect(attribute("url.full", of: masked) == .string(masked))
    }

    @Test func theServerAndItsPortAreNamed() {
        #expect(attribute("server.address", of: "http://127.0.0.1:8080/x") == .string("127.0.0.1"))
        #expect(attribute("server.port", of: "http://127.0.0.1:8080/x") == .int(8080))
        #expect(attribute("server.port", of: "https://api.test/x") == .int(443))
        #expect(attribute("server.port", of: "http://api.test/x") == .int(80))
    }

    @Test func protobufVarintsAndFixedFieldsAreWrittenAsTheWireFormatSays() {
        var writer = ProtobufWriter()
        writer.varintField(1, 300)
        writer.fixed64(2, 1)
        writer.string(3, "hi")
        writer.varintField(4, 0)
        #expect(writer.bytes == [0x08, 0xAC, 0x02, 0x11, 1, 0, 0, 0, 0, 0, 0, 0, 0x1A, 2, 0x68, 0x69])
    }
}

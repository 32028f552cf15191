import APITestHTTP
import Foundation
import Testing

@testable import APITestCLI

/// `apitest pin-check`'s text shows certificate names from the server with control characters escaped.
@Suite struct PinCheckReportTests {
    @Test func certificateNamesCannotDriveTheTerminal() {
        let hostile = "evil\u{1B}]0;pwned\u{7}\rOK: pin matched"
        let certificate = CertificateInfo(
            subject: "CN=\(hostile)", issuer: "CN=issuer\u{1B}[2J", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 4_000_000_000), serialNumber: "01",
            subjectAlternativeNames: ["DNS:\(hostile)"], sha256Fingerprint: "00", publicKeyPin: "sha256//AAAA")
        let report = PinCheckReport(
            url: "https://h/", policy: SecurityPolicy(),
            evaluation: TLSEvaluation(verdict: .trusted, chain: [certificate]), minDays: nil,
            now: Date(timeIntervalSince1970: 0))
        let text = report.text(colored: false, printPins: true)
        let bytes = Array(text.utf8)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x0D), "\(text)")
        #expect(text.contains(#"CN=evil\u{1B}]0;pwned\u{7}\rOK: pin matched"#))
        #expect(text.contains(#"names        DNS:evil\u{1B}]0;pwned"#))
        #expect(text.contains(#"issuer       CN=issuer\u{1B}[2J"#))
    }
}

import APITestReporting
import APITestResults
import Foundation
import Testing

/// `apitest pin-check`'s text and JSON: certificate names from the server never drive the terminal; the JSON
/// carries every fact of the chain and the exit code.
@Suite struct PinCheckReportFormatTests {
    private static let hostile = "evil\u{1B}]0;pwned\u{7}\rOK: pin matched"

    private static func result(status: PinCheckResult.Status = .matched) -> PinCheckResult {
        let certificate = PinCheckResult.Certificate(
            depth: 0, subject: "CN=\(hostile)", issuer: "CN=issuer\u{1B}[2J", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 4_000_000_000), daysLeft: 46_296, serialNumber: "01",
            subjectAlternativeNames: ["DNS:\(hostile)"], sha256Fingerprint: "00", publicKeyPin: "sha256//AAAA",
            matchesPin: status == .matched)
        return PinCheckResult(
            url: "https://h/", mode: "publicKey", configuredPins: ["sha256//AAAA", "sha256//BBBB"],
            chain: [certificate],
            status: status,
            verdict: status == .matched ? "pin matched at depth 0 (CN=\(hostile)): sha256//AAAA" : "pin mismatch",
            matchedDepth: status == .matched ? 0 : nil, matchedPin: status == .matched ? "sha256//AAAA" : nil)
    }

    @Test func certificateNamesCannotDriveTheTerminal() {
        let text = PinCheckReportFormat.text(Self.result(), colored: false, printPins: true)
        let bytes = Array(text.utf8)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x0D), "\(text)")
        #expect(text.contains(#"depth 0  CN=evil\u{1B}]0;pwned\u{7}\rOK: pin matched"#))
        #expect(text.contains(#"names        DNS:evil\u{1B}]0;pwned"#))
        #expect(text.contains(#"issuer       CN=issuer\u{1B}[2J"#))
        #expect(text.contains("pin          sha256//AAAA  <- matches a configured pin"))
        #expect(text.contains("valid        1970-01-01T00:00:00Z to 2096-10-02T07:06:40Z (46296 days left)"))
        #expect(text.contains("curl --pinnedpubkey 'sha256//AAAA' 'https://h/'"))
        #expect(
            text.hasSuffix(
                #"OK: pin matched at depth 0 (CN=evil\u{1B}]0;pwned\u{7}\rOK: pin matched): sha256//AAAA"# + "\n"))
    }

    @Test func aMismatchListsBothSidesOfTheComparison() {
        let text = PinCheckReportFormat.text(Self.result(status: .pinMismatch), colored: false, printPins: false)
        #expect(
            text.contains(
                "FAIL: pin mismatch\n  the chain's pins: sha256//AAAA\n  configured pins:  sha256//AAAA, sha256//BBBB\n"
            ))
        #expect(!text.contains("<- matches"))
        #expect(!text.contains("# for a suite"))
    }

    @Test func jsonCarriesEveryFactAndTheExitCode() throws {
        let text = PinCheckReportFormat.json(Self.result(status: .pinMismatch), exitCode: 4, printPins: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "pinMismatch")
        #expect(object["exitCode"] as? Int == 4)
        #expect(object["mode"] as? String == "publicKey")
        #expect(object["pins"] as? [String] == ["sha256//AAAA"])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.first?["subject"] as? String == "CN=\(Self.hostile)")
        #expect(chain.first?["notAfter"] as? String == "2096-10-02T07:06:40Z")
        #expect(chain.first?["matchesPin"] as? Bool == false)
    }
}

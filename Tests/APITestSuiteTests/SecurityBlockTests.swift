import APITestSecurity
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// The suite's `security:` block: values, located errors with suggestions, AFNetworking's rule and the
/// backup-pin warning.
struct SecurityBlockTests {
    static let pinA = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
    static let pinB = "sha256//" + Data(repeating: 2, count: 32).base64EncodedString()

    func suite(_ security: String) -> String {
        "name: s\nsecurity:\n\(security)\ntests:\n  - name: a\n    request: {url: \"https://example.com/\"}\n"
    }

    @Test func parsesEverySetting() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["ca.pem", "client.pem", "client.key", "pinned.pem"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("x".utf8)))
        }
        let yaml = suite(
            """
              pinning: publicKey
              pins: ["\(Self.pinA)", "\(Self.pinB)"]
              certificates: pinned.pem
              allowInvalidCertificates: true
              validatesDomainName: false
              caFile: ca.pem
              clientCertificate: client.pem
              clientKey: client.key
              hosts: [API.example.com]
            """)
        let loaded = try loadSuite(yaml, file: directory + "/suite.yaml")
        let block = try #require(loaded.security)
        let security = block.settings
        #expect(security.pinning == .publicKey)
        #expect(security.pins.map(\.description) == [Self.pinA, Self.pinB])
        #expect(security.certificates == [directory + "/pinned.pem"])
        #expect(security.allowInvalidCertificates)
        #expect(!security.validatesDomainName)
        #expect(security.caFile == directory + "/ca.pem")
        #expect(security.clientCertificate == directory + "/client.pem")
        #expect(security.clientKey == directory + "/client.key")
        #expect(security.hosts == ["api.example.com"])
        #expect(block.location.line == 2)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func defaultsAreSecure() throws {
        #expect(
            try loadSuite(suite("  pinning: none")).security
                == SuiteSecurity(location: SourceLocation(file: "suites/test.yaml", line: 2, column: 1)))
        let spec = SuiteSecurity(location: SourceLocation(file: "f", line: 1, column: 1)).settings
        #expect(!spec.allowInvalidCertificates && spec.validatesDomainName && spec.pinning == .none)
        #expect(try loadSuite("name: s\ntests:\n  - name: a\n    request: {url: \"https://x/\"}\n").security == nil)
    }

    @Test func errorsAreLocatedWithSuggestions() {
        #expect(
            errors(
                suite("  pinning: publicKey\n  pins: [\"\(Self.pinA)\", \"\(Self.pinB)\"]\n  validateDomainName: false")
            )
                == [
                    "suites/test.yaml:5:3: error: unknown key 'validateDomainName' in security; did you mean 'validatesDomainName'?"
                ])
        #expect(
            errors(suite("  pinning: pubkey"))
                == ["suites/test.yaml:3:12: error: unknown pinning 'pubkey'; use none, publicKey or certificate"])
        #expect(
            errors(suite("  pinning: publicKey\n  pins: [\"md5//abc\", \"\(Self.pinA)\"]"))
                == [
                    "suites/test.yaml:4:10: error: 'md5//abc' is not a pin; pins look like sha256//<base64 of the SHA-256 of the public key>"
                ])
        let short = "sha256//" + Data(repeating: 1, count: 20).base64EncodedString()
        #expect(
            errors(suite("  pinning: publicKey\n  pins: [\"\(short)\", \"\(Self.pinA)\"]")).first?.contains(
                "holds 20 bytes; a SHA-256 pin holds 32") == true)
        #expect(
            errors(suite("  pinning: publicKey"))
                == ["suites/test.yaml:3:3: error: pinning 'publicKey' needs 'pins' or 'certificates'"])
        #expect(
            errors(suite("  pinning: certificate\n  caFile: missing.pem")) == [
                "suites/test.yaml:3:3: error: pinning 'certificate' needs 'certificates'",
                "suites/test.yaml:4:11: error: caFile 'missing.pem' does not exist (looked for "
                    + FileManager.default.currentDirectoryPath + "/suites/missing.pem)",
            ])
        #expect(errors(suite("  allowInvalidCertificates: maybe")).first?.contains("expected true or false") == true)
    }

    @Test func invalidCertificatesWithDomainValidationNeedAPin() throws {
        #expect(
            errors(suite("  allowInvalidCertificates: true")) == [
                "suites/test.yaml:3:3: error: 'allowInvalidCertificates' with 'validatesDomainName' needs a pin: "
                    + "a self-signed certificate can only be trusted through a pin (pin the certificate or its key, "
                    + "or set 'validatesDomainName: false')"
            ])
        #expect(try loadSuite(suite("  allowInvalidCertificates: true\n  validatesDomainName: false")).security != nil)
        _ = try loadSuite(
            suite(
                "  allowInvalidCertificates: true\n  pinning: publicKey\n  pins: [\"\(Self.pinA)\", \"\(Self.pinB)\"]"))
    }

    @Test func aSinglePinIsWarnedAbout() throws {
        let loaded = try loadSuite(suite("  pinning: publicKey\n  pins: [\"\(Self.pinA)\"]"))
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.message.contains("only one pin") == true)
        #expect(loaded.warnings.first?.location.line == 3)
        let two = try loadSuite(suite("  pinning: publicKey\n  pins: [\"\(Self.pinA)\", \"\(Self.pinB)\"]"))
        #expect(two.warnings.isEmpty)
    }
}

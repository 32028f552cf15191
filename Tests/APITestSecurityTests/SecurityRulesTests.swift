import Foundation
import Testing

@testable import APITestSecurity

/// The combination rules, written once in `SecurityFacts.problems`: each rule with its problem, its severity, the
/// setting it concerns and its words in both vocabularies.
struct SecurityRulesTests {
    static let pinA = PublicKeyPin(sha256: Array(repeating: 1, count: 32))
    static let pinB = PublicKeyPin(sha256: Array(repeating: 2, count: 32))

    func kinds(_ settings: SecuritySettings) -> [SecurityProblem.Kind] { settings.problems.map(\.kind) }

    @Test func theDefaultsAndAPinnedPairHaveNoProblem() {
        #expect(kinds(SecuritySettings()).isEmpty)
        #expect(kinds(SecuritySettings(pinning: .publicKey, pins: [Self.pinA, Self.pinB])).isEmpty)
        #expect(kinds(SecuritySettings(pinning: .publicKey, pins: [Self.pinA], certificates: ["/c.pem"])).isEmpty)
        #expect(kinds(SecuritySettings(pinning: .certificate, certificates: ["/c.pem"])).isEmpty)
        #expect(
            kinds(SecuritySettings(allowInvalidCertificates: true, validatesDomainName: false, caFile: "/ca.pem"))
                .isEmpty)
        #expect(kinds(SecuritySettings(clientCertificate: "/c.pem", clientKey: "/c.key")).isEmpty)
    }

    @Test func whatTheModeDoesNotUseIsAWarning() {
        #expect(
            kinds(SecuritySettings(pins: [Self.pinA], certificates: ["/c.pem"]))
                == [.ignored(.pins, mode: .none), .ignored(.certificates, mode: .none)])
        #expect(
            kinds(SecuritySettings(pinning: .certificate, pins: [Self.pinA], certificates: ["/c.pem"]))
                == [.ignored(.pins, mode: .certificate)])
        let problem = SecurityProblem(.ignored(.certificates, mode: .none))
        #expect(problem.severity == .warning && problem.setting == .certificates)
        #expect(problem.message(in: .suiteKeys) == "'certificates' has no effect while 'pinning' is none")
        #expect(problem.note(in: .suiteKeys) == "set 'pinning: publicKey' or 'pinning: certificate' to check them")
        #expect(problem.message(in: .plainWords) == "certificates have no effect while pinning is none")
        #expect(problem.note(in: .plainWords) == nil)
        #expect(
            SecurityProblem(.ignored(.pins, mode: .certificate)).message(in: .suiteKeys)
                == "'pins' has no effect with 'pinning: certificate'")
    }

    @Test func aModeNeedsWhatItChecks() {
        #expect(kinds(SecuritySettings(pinning: .publicKey)) == [.publicKeyNeedsPins])
        #expect(kinds(SecuritySettings(pinning: .certificate)) == [.certificateNeedsCertificates])
        #expect(
            kinds(SecuritySettings(pinning: .certificate, pins: [Self.pinA, Self.pinB])) == [
                .certificateNeedsCertificates, .ignored(.pins, mode: .certificate),
            ])
        let publicKey = SecurityProblem(.publicKeyNeedsPins)
        #expect(publicKey.isError && publicKey.setting == .pinning)
        #expect(publicKey.message(in: .suiteKeys) == "pinning 'publicKey' needs 'pins' or 'certificates'")
        #expect(publicKey.message(in: .plainWords) == "pinning 'publicKey' needs at least one pin or certificate")
        let certificate = SecurityProblem(.certificateNeedsCertificates)
        #expect(certificate.message(in: .suiteKeys) == "pinning 'certificate' needs 'certificates'")
        #expect(certificate.message(in: .plainWords) == "pinning 'certificate' needs at least one certificate")
    }

    @Test func invalidCertificatesWithDomainValidationNeedAPin() {
        #expect(kinds(SecuritySettings(allowInvalidCertificates: true)) == [.invalidCertificatesNeedPin])
        #expect(
            kinds(SecuritySettings(pinning: .publicKey, allowInvalidCertificates: true))
                == [.publicKeyNeedsPins, .invalidCertificatesNeedPin])
        #expect(kinds(SecuritySettings(allowInvalidCertificates: true, validatesDomainName: false)).isEmpty)
        #expect(
            kinds(SecuritySettings(pinning: .publicKey, pins: [Self.pinA, Self.pinB], allowInvalidCertificates: true))
                .isEmpty)
        // Certificates pin nothing in mode none.
        #expect(
            kinds(SecuritySettings(certificates: ["/c.pem"], allowInvalidCertificates: true))
                == [.ignored(.certificates, mode: .none), .invalidCertificatesNeedPin])
        let problem = SecurityProblem(.invalidCertificatesNeedPin)
        #expect(problem.isError && problem.setting == .allowInvalidCertificates)
        #expect(
            problem.message(in: .suiteKeys)
                == "'allowInvalidCertificates' with 'validatesDomainName' needs a pin: a self-signed certificate can "
                + "only be trusted through a pin")
        #expect(problem.note(in: .suiteKeys) == "pin the certificate or its key, or set 'validatesDomainName: false'")
        #expect(problem.message(in: .plainWords).contains("you must pin it"))
    }

    @Test func aClientKeyNeedsItsCertificate() {
        #expect(kinds(SecuritySettings(clientKey: "/c.key")) == [.clientKeyNeedsCertificate])
        #expect(kinds(SecuritySettings(clientCertificate: "/c.pem")).isEmpty)
        let problem = SecurityProblem(.clientKeyNeedsCertificate)
        #expect(problem.setting == .clientKey)
        #expect(problem.message(in: .suiteKeys) == "'clientKey' needs a 'clientCertificate'")
        #expect(problem.message(in: .plainWords) == "a client key needs a client certificate")
    }

    @Test func aSinglePinIsWarnedAbout() {
        #expect(kinds(SecuritySettings(pinning: .publicKey, pins: [Self.pinA])) == [.singlePin])
        #expect(kinds(SecuritySettings(pinning: .publicKey, certificates: ["/c.pem"])) == [.singlePin])
        #expect(kinds(SecuritySettings(pinning: .certificate, certificates: ["/c.pem"])).isEmpty)
        // A policy counts the distinct keys of its loaded certificates, not files.
        var facts = SecuritySettings(pinning: .publicKey, certificates: ["/bundle.pem"]).facts
        facts.pinnedKeys = 3
        #expect(facts.problems.isEmpty)
        let problem = SecurityProblem(.singlePin)
        #expect(problem.severity == .warning && problem.setting == .pinning)
        #expect(
            problem.message(in: .suiteKeys) == "only one pin: add a backup pin (a key not yet in use, or the CA's key)")
        #expect(problem.note(in: .suiteKeys)?.contains("TrustKit requires two") == true)
        #expect(problem.message(in: .plainWords).hasPrefix("only one pin: add a backup pin"))
        #expect(problem.description == problem.message(in: .plainWords))
    }

    @Test func everySettingIsAKey() {
        #expect(
            SecuritySetting.allCases.map(\.rawValue) == [
                "pinning", "pins", "certificates", "allowInvalidCertificates", "validatesDomainName", "caFile",
                "clientCertificate", "clientKey", "hosts",
            ])
    }
}

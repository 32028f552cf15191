import Foundation
import Testing

@testable import APITestSecurity

/// Pins are parsed once, to 32 bytes, or refused with the problem that says why.
struct PublicKeyPinTests {
    static let bytes = (0..<32).map { UInt8($0) }
    static let text = "sha256//" + Data(bytes).base64EncodedString()

    @Test func aPinIsTheSHA256OfAKeyInCurlsFormat() throws {
        let pin = try PublicKeyPin(Self.text)
        #expect(pin.sha256 == Self.bytes)
        #expect(pin.description == Self.text)
        #expect(try PublicKeyPin("  \(Self.text) ") == pin)
        #expect(PublicKeyPin(sha256: Self.bytes) == pin)
    }

    static let long = "sha256//" + Data(repeating: 1, count: 33).base64EncodedString()
    static let upperCase = "SHA256//" + Data(bytes).base64EncodedString()
    static let refused: [(String, SecurityProblem.Kind)] = [
        ("md5//abc", .notAPin("md5//abc")),
        ("", .notAPin("")),
        (upperCase, .notAPin(upperCase)),
        ("sha256//not base64!", .pinNotBase64("sha256//not base64!")),
        ("sha256//c2hvcnQ=", .pinLength("sha256//c2hvcnQ=", bytes: 5)),
        ("sha256//", .pinLength("sha256//", bytes: 0)),
        (long, .pinLength(long, bytes: 33)),
    ]

    @Test(arguments: refused)
    func whatIsNotAPinSaysWhy(text: String, kind: SecurityProblem.Kind) {
        #expect(throws: SecurityProblem(kind)) { try PublicKeyPin(text) }
        #expect(SecurityProblem(kind).setting == .pins)
        #expect(SecurityProblem(kind).isError)
    }

    @Test func pinProblemsReadTheSameInEveryVocabulary() {
        for vocabulary in [SecurityProblem.Vocabulary.suiteKeys, .plainWords] {
            #expect(
                SecurityProblem(.notAPin("x")).message(in: vocabulary)
                    == "'x' is not a pin; pins look like sha256//<base64 of the SHA-256 of the public key>")
            #expect(
                SecurityProblem(.pinNotBase64("sha256//!")).message(in: vocabulary)
                    == "the pin 'sha256//!' is not valid base64")
            #expect(
                SecurityProblem(.pinLength("sha256//c2hvcnQ=", bytes: 5)).message(in: vocabulary)
                    == "the pin 'sha256//c2hvcnQ=' holds 5 bytes; a SHA-256 pin holds 32 (44 base64 characters)")
        }
    }
}

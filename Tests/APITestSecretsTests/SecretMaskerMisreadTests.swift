import Foundation
import Testing

@testable import APITestSecrets

/// A server that decodes the UTF-8 bytes of a header as Latin-1 (or Windows-1252) and echoes them shows a secret
/// with a non-ASCII character in a spelling of its own; the masker finds it as text and JSON-escaped.
@Suite struct SecretMaskerMisreadTests {
    static let secret = "horsebattery-é-staple42"

    /// The exact bytes httpbin's `/headers` sends for `X-K: horsebattery-é-staple42` (Python reads the header as
    /// Latin-1, then `json.dumps` escapes every non-ASCII character).
    @Test func theJSONEchoOfALatin1ReadingIsMasked() {
        let masker = SecretMasker(secrets: [Self.secret])
        let echoed = #"{"headers": {"X-K": "horsebattery-\u00c3\u00a9-staple42", "Host": "h"}}"#
        #expect(masker.mask(echoed) == #"{"headers": {"X-K": "•••••", "Host": "h"}}"#)
        #expect(masker.containsSecret(echoed))
    }

    @Test func theTextEchoOfALatin1ReadingIsMasked() {
        let masker = SecretMasker(secrets: [Self.secret])
        // UTF-8 C3 A9 read as Latin-1 is "Ã©", sent back in UTF-8.
        #expect(masker.mask("X-K: horsebattery-\u{C3}\u{A9}-staple42\n") == "X-K: •••••\n")
    }

    @Test func aWindows1252ReadingIsMaskedToo() {
        // "€" is E2 82 AC: Windows-1252 reads "â‚¬", Latin-1 reads "â", U+0082, "¬".
        let masker = SecretMasker(secrets: ["price-€-9000"])
        #expect(masker.mask("v=price-\u{E2}\u{201A}\u{AC}-9000;") == "v=•••••;")
        #expect(masker.mask(#"v="price-\u00e2\u0082\u00ac-9000""#) == #"v="•••••""#)
    }

    @Test func anASCIISecretHasNoMisreadSpelling() {
        #expect(SecretMasker.misreadSpellings(of: Array("plain-secret".utf8)).isEmpty)
        #expect(SecretMasker.misreadSpellings(of: Array(Self.secret.utf8)) == [Array("horsebattery-Ã©-staple42".utf8)])
    }
}

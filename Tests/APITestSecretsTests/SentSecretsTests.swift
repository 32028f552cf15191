import APITestHTTP
import APITestJSON
import Foundation
import Testing

@testable import APITestSecrets

/// A request's credentials include what it sends of a secret as it goes on the wire: the whole value of each field
/// derived from a secret (`originBoundHeaders`), whose other spellings (base64, hex) the masker derives.
@Suite struct SentSecretsTests {
    @Test func theWholeValueOfAFieldDerivedFromASecretIsACredential() {
        var request = HTTPRequest(
            url: "http://127.0.0.1/", headers: ["X-Sig": "v1=k3y-v@lue;ts=17", "X-Plain": "plain-value"])
        request.originBoundHeaders = OriginBoundHeaders(["x-sig"])
        let credentials = SecretMasker.credentials(of: request)
        #expect(credentials.contains("v1=k3y-v@lue;ts=17"))
        #expect(!credentials.contains("plain-value"))
        // A server that echoes the field in base64 has it masked whole.
        let masker = SecretMasker(secrets: credentials)
        let echoed = "sig=" + Data("v1=k3y-v@lue;ts=17".utf8).base64EncodedString()
        #expect(masker.mask(echoed) == "sig=•••••")
        #expect(masker.mask("plain-value") == "plain-value")
    }

    /// A secret with a quote in its middle, so no base64 alignment of it survives JSON escaping or form-encoding.
    static let secret = "s3\"cr@t+pa/ss&w=érd"

    @Test func aSecretInsideABase64EchoOfAFormBodyIsMasked() {
        let masker = SecretMasker(secrets: [Self.secret])
        let body = "grant=x&password=" + PercentEncoding.encode(Self.secret) + "&scope=read"
        let echo = "got " + Data(body.utf8).base64EncodedString() + " ok"
        #expect(masker.mask(echo) == "got ••••• ok")
        #expect(masker.containsSecret(echo))
    }

    @Test func aSecretInsideABase64EchoOfAJSONBodyIsMasked() {
        let masker = SecretMasker(secrets: [Self.secret])
        // The body as apitest writes it (the quote escaped).
        let value: JSONValue = ["password": .string(Self.secret), "user": "alice"]
        let body = JSONWriter.string(value)
        #expect(body.contains(#"s3\"cr"#))
        let echo = "got " + Data(body.utf8).base64EncodedString() + " ok"
        #expect(masker.mask(echo) == "got ••••• ok")
    }

    @Test func theSpellingsAreThoseApitestSends() {
        #expect(SecretMasker.sentSpellings(of: "abcDEF123-._~").isEmpty)
        #expect(SecretMasker.sentSpellings(of: "a b") == [Array("a%20b".utf8)])
        #expect(SecretMasker.sentSpellings(of: #"a"b"#) == [Array("a%22b".utf8), Array(#"a\"b"#.utf8)])
    }
}

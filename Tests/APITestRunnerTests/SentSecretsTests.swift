import APITestHTTP
import Foundation
import Testing

@testable import APITestRunner

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
}

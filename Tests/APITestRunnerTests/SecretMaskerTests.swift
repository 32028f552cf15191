import Testing

@testable import APITestRunner

@Suite struct SecretMaskerTests {
    @Test func masksEverySecretLongestFirst() {
        let masker = SecretMasker(secrets: ["abc", "abcdef", ""])
        #expect(masker.mask("x abcdef y abc z") == "x ••••• y ••••• z")
        #expect(masker.mask("nothing here") == "nothing here")
    }

    @Test func masksEncodedForms() {
        let masker = SecretMasker(secrets: ["pa ss\"w/rd"])
        #expect(masker.mask("/login?password=pa%20ss%22w%2Frd") == "/login?password=•••••")
        #expect(masker.mask(#"{"password":"pa ss\"w/rd"}"#) == #"{"password":"•••••"}"#)
        #expect(masker.mask(#"{"body":"{\"password\":\"pa ss\\\"w/rd\"}"}"#) == #"{"body":"{\"password\":\"•••••\"}"}"#)
    }

    @Test func sensitiveHeadersAreMaskedWhole() {
        let masker = SecretMasker(secrets: [])
        for name in ["Authorization", "cookie", "SET-COOKIE", "Proxy-Authorization"] {
            #expect(masker.maskHeader(name: name, value: "Bearer t0k3n") == "•••••")
        }
        #expect(masker.maskHeader(name: "X-Trace", value: "abc") == "abc")
    }
}

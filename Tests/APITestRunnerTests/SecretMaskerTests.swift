import Foundation
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
        #expect(masker.mask("<string>pa ss&quot;w/rd</string>") == "<string>•••••</string>")
    }

    @Test func bodiesAreMaskedBeforeTheyAreCut() {
        let masker = SecretMasker(secrets: ["s3cr3t-value"])
        let body = Data((String(repeating: "a", count: 95) + "s3cr3t-value" + String(repeating: "b", count: 50)).utf8)
        let preview = ExchangeRecorder.preview(body, limit: 100, masker: masker)
        #expect(!preview.contains("s3cr"))
        #expect(preview.hasSuffix("… (157 bytes in all)"))
    }

    @Test func sensitiveHeadersAreMaskedWhole() {
        let masker = SecretMasker(secrets: [])
        for name in ["Authorization", "cookie", "SET-COOKIE", "Proxy-Authorization"] {
            #expect(masker.maskHeader(name: name, value: "Bearer t0k3n") == "•••••")
        }
        #expect(masker.maskHeader(name: "X-Trace", value: "abc") == "abc")
    }
}

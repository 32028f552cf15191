import Foundation
import Testing

@testable import APITestSecrets

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

    /// Every form a server or a filter may give a secret, each inside surrounding text that must survive.
    static let encodedForms: [(String, String)] = {
        let secret = "ab cd\"éf/ü+1"
        let basic = Data("alice:\(secret)".utf8).base64EncodedString()
        let userinfo = Data("\(secret):x".utf8).base64EncodedString()
        return [
            ("as written", secret),
            ("percent-encoded", "ab%20cd%22%C3%A9f%2F%C3%BC%2B1"),
            ("form-encoded", "ab+cd%22%C3%A9f%2F%C3%BC%2B1"),
            ("JSON-escaped", #"ab cd\"éf/ü+1"#),
            ("\\u escapes (Python json.dumps)", #"ab cd\"\u00e9f/\u00fc+1"#),
            ("\\/ escapes (PHP json_encode)", #"ab cd\"\u00e9f\/\u00fc+1"#),
            ("JSON inside JSON", #"ab cd\\\"\\u00e9f\\/\\u00fc+1"#),
            ("mixed percent and JSON", #"ab%20cd\"éf/ü+1"#),
            ("XML references", "ab cd&quot;&#233;f/&#xFC;+1"),
            ("HTML in JSON", #"ab cd\u0026quot;éf/ü+1"#),
            ("Basic credentials", "Basic " + basic),
            ("Basic credentials from user:pw@host", "Basic " + userinfo),
            ("base64Encode", Data(secret.utf8).base64EncodedString()),
            ("base64 at offset 1", Data(("x" + secret).utf8).base64EncodedString()),
            (
                "base64 at offset 2, URL-safe",
                Data(("xy" + secret + "?>").utf8).base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            ),
        ]
    }()

    @Test(arguments: encodedForms)
    func masksEveryEncoding(_ name: String, _ form: String) {
        let masker = SecretMasker(secrets: ["ab cd\"éf/ü+1"])
        let masked = masker.mask("before \(form) after")
        #expect(masked.hasPrefix("before "), "\(name): \(masked)")
        #expect(masked.hasSuffix(" after"), "\(name): \(masked)")
        #expect(masked.contains(SecretMasker.mask), "\(name): \(masked)")
        #expect(!masked.contains("cd"), "\(name): \(masked)")
        #expect(masker.containsSecret(form), "\(name)")
    }

    @Test func textWithoutSecretsIsUnchanged() {
        let masker = SecretMasker(secrets: ["s3cr3t-value"])
        for text in ["plain", "%41%zz \\u12 &amp; &#xZZ; \\uD800 é", #"{"a":"\/b"}"#, "YWJj", ""] {
            #expect(masker.mask(text) == text)
            #expect(!masker.containsSecret(text))
        }
    }

    @Test func derivedValuesAreAdded() {
        let masker = SecretMasker(secrets: ["Top-Secret-1"]).adding(["top-secret-1"])
        #expect(masker.mask("got top-secret-1") == "got •••••")
        // Another case of a secret is masked too: servers upper-case what they echo.
        #expect(masker.mask("got TOP-SECRET-1") == "got •••••")
    }

    @Test func sensitiveHeadersAreMaskedWhole() {
        let masker = SecretMasker(secrets: [])
        for name in ["Authorization", "cookie", "SET-COOKIE", "Proxy-Authorization"] {
            #expect(masker.maskHeader(name: name, value: "Bearer t0k3n") == "•••••")
        }
        #expect(masker.maskHeader(name: "X-Trace", value: "abc") == "abc")
    }
    @Test func aNetrcFilesPasswordsAreSecretsWhateverTheirEntry() {
        let text = """
            machine api.example.test login nina password Pw1-nina
            macdef init
            password NotAPasswordInAMacro

            machine other.test
              password "quoted \\"pw\\" 2"
              login omar
            default login anon password AnonPw3
            """
        #expect(
            NetrcSecrets.secrets(of: text) == [
                "Pw1-nina", "nina:Pw1-nina", #"quoted "pw" 2"#, #"omar:quoted "pw" 2"#, "AnonPw3", "anon:AnonPw3",
            ])
        // A password too short to mask on its own is still masked in its pair (the `Basic` token's text).
        #expect(NetrcSecrets.secrets(of: "machine a login b password xy") == ["b:xy"])
    }

    @Test func aProxysPasswordIsFoundAsWrittenAndDecoded() {
        #expect(
            SecretMasker.proxyCredentials("http://pu:P%40ss55@proxy:3128/") == ["P%40ss55", "P@ss55", "pu:P@ss55"])
        #expect(SecretMasker.proxyCredentials("socks5h://u:pw12@host") == ["pw12", "pw12", "u:pw12"])
        #expect(SecretMasker.proxyCredentials("http://proxy:3128").isEmpty)
        #expect(SecretMasker.proxyCredentials("http://onlyuser@proxy").isEmpty)
    }
    @Test func aSecretInBase64WrappedIntoLinesIsMaskedAcrossTheBreaks() {
        let secret = "XTokAlpha9f8e7d6c5b4a3210Y"
        let masker = SecretMasker(secrets: [secret])
        for padding in 0..<60 {
            let data = Data((String(repeating: "p", count: padding) + "token=" + secret + "&rest=1").utf8)
            // Python's base64.encodebytes (76 columns, \n) and MIME's (76 columns, \r\n), and PEM's 64 columns.
            let standard = data.base64EncodedString()
            var wrapped: [String] = []
            for (width, breakText) in [(76, "\n"), (76, "\r\n"), (64, "\n")] {
                var lines: [String] = []
                var rest = Substring(standard)
                while !rest.isEmpty {
                    lines.append(String(rest.prefix(width)))
                    rest = rest.dropFirst(width)
                }
                wrapped.append(lines.joined(separator: breakText))
            }
            for blob in wrapped {
                let masked = masker.mask("data:\n" + blob + "\n")
                #expect(masked == "data:\n•••••\n", "padding \(padding): \(masked)")
            }
        }
        // Text that only looks wrapped is left alone.
        #expect(masker.mask("first line\nsecond line") == "first line\nsecond line")
    }
    @Test func aSecretEchoedInAnotherCaseOrInHexIsMasked() {
        let secret = "TokAlpha9f8e"
        let masker = SecretMasker(secrets: [secret])
        let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
        #expect(masker.mask("Bearer%20" + hex) == "Bearer%20•••••")
        for echoed in [secret.uppercased(), secret.lowercased(), hex, hex.uppercased()] {
            #expect(masker.mask("X-Echo: \(echoed);") == "X-Echo: •••••;", "\(echoed)")
            #expect(masker.containsSecret(echoed), "\(echoed)")
        }
    }
}

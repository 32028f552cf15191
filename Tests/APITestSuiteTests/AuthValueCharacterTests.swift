import Testing

@testable import APITestSuite

/// Authentication settings that go into a header (a bearer token, user names and passwords, AWS keys, an OAuth2
/// client's id and secret) are checked at load as header values are: a line break, NUL or another control
/// character but HTAB is a located error, not a request refused at run time.
@Suite("Auth value characters")
struct AuthValueCharacterTests {
    /// The errors of a request whose `auth` (or `basicAuth`, with `key: basicAuth`) is the flow map `auth`.
    static func errors(_ auth: String, key: String = "auth") -> [String] {
        APITestSuiteTests.errors(
            "tests:\n  - name: t\n    steps:\n      - request:\n          url: 'http://127.0.0.1:1/'\n"
                + "          \(key): \(auth)\n")
    }

    @Test func aBearerTokenWithALineBreakIsALoadError() {
        #expect(
            Self.errors(#"{bearer: "t\r\nX-Injected: 1"}"#) == [
                "suites/test.yaml:6:26: error: the value of 'bearer' cannot contain a line break"
            ])
    }

    @Test(arguments: [
        (#"{basic: {user: "a\nb", password: p}}"#, "user", "a line break", 32),
        (#"{digest: {username: u, password: "p\0"}}"#, "password", "a NUL character", 50),
        (#"{ntlm: {user: u, password: "p\x7F"}}"#, "password", "the control character U+007F", 44),
        (
            #"{awsSigV4: {accessKey: "AK\r", secretKey: s, region: r, service: s}}"#, "accessKey",
            "a line break", 40
        ),
        (
            #"{awsSigV4: {accessKey: a, secretKey: s, sessionToken: "x\vy", region: r, service: s}}"#,
            "sessionToken", "the control character U+000B", 71
        ),
        (
            #"{oauth2: {flow: clientCredentials, tokenURL: /t, clientId: "c\x01", clientSecret: s}}"#, "clientId",
            "the control character U+0001", 76
        ),
    ])
    func credentialsWithControlCharactersAreLoadErrors(_ auth: String, _ key: String, _ what: String, _ column: Int) {
        #expect(
            Self.errors(auth) == ["suites/test.yaml:6:\(column): error: the value of '\(key)' cannot contain \(what)"])
    }

    @Test func basicAuthIsCheckedToo() {
        #expect(
            Self.errors(#"{username: u, password: "p\r\nq"}"#, key: "basicAuth") == [
                "suites/test.yaml:6:46: error: the value of 'password' cannot contain a line break"
            ])
    }

    @Test func aTabAndTemplatesPass() {
        #expect(Self.errors(#"{bearer: "a\tb é {{ 1 + 1 }}"}"#) == [])
        #expect(Self.errors(#"{basic: {user: "a b", password: "{{ 1 + 1 }}"}}"#) == [])
    }
}

import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Issue 37: `auth: none` and `auth: false` load as ``AuthSpec/disabled`` on a request and in `defaults`; any other
/// scalar is a located error that says what `auth` takes. The old code refused both (`expected a map for 'auth'`).
struct AuthNoneKeyTests {
    func suite(request: String, defaults: String = "") -> String {
        let defaultsBlock = defaults.isEmpty ? "" : "defaults:\n\(defaults)\n"
        return
            "name: s\n\(defaultsBlock)tests:\n  - name: a\n    request:\n      url: \"http://api.example.test/\"\n\(request)\n"
    }

    @Test func noneAndFalseLoadOnARequestAndInDefaults() throws {
        for text in ["none", "false", "False", "\"none\""] {
            let loaded = try loadSuite(
                suite(request: "      auth: \(text)", defaults: "  auth: {bearer: t}"))
            #expect(loaded.tests[0].steps[0].request.auth == .disabled, "\(text)")
            #expect(loaded.defaults.auth == .bearer(try #require(loaded.defaults.auth?.templates.first)))
            let inDefaults = try loadSuite(suite(request: "", defaults: "  auth: \(text)"))
            #expect(inDefaults.defaults.auth == .disabled, "\(text)")
            #expect(inDefaults.tests[0].steps[0].request.auth == nil)
        }
    }

    /// `auth: none` is no authentication: beside the request's (or the defaults') own `Authorization` header it
    /// gives nothing twice, unlike a kind.
    @Test func noneBesideAnAuthorizationHeaderLoads() throws {
        let request = try loadSuite(
            suite(
                request: "      auth: none\n      headers: {Authorization: \"Token abc\"}",
                defaults: "  auth: {bearer: t}"))
        #expect(request.tests[0].steps[0].request.auth == .disabled)
        let defaults = try loadSuite(suite(request: "", defaults: "  auth: none\n  headers: {Authorization: Token x}"))
        #expect(defaults.defaults.auth == .disabled)
        #expect(
            errors(suite(request: "      auth: {bearer: t}\n      headers: {Authorization: \"Token abc\"}")).first?
                .contains("authentication is given twice") == true)
    }

    @Test func otherScalarsAreLocatedErrors() {
        let kinds = "'basic', 'bearer', 'digest', 'ntlm', 'awsSigV4', 'netrc', 'oauth2'"
        #expect(
            errors(suite(request: "      auth: no")) == [
                "suites/test.yaml:6:13: error: 'auth' takes a map of one kind (\(kinds)), or 'none' (or false) for no "
                    + "authentication; found 'no'; did you mean 'none'? ('auth: none' sends the request without the suite's "
                    + "defaults.auth)"
            ])
        #expect(
            errors(suite(request: "      auth: true")) == [
                "suites/test.yaml:6:13: error: 'auth' takes a map of one kind (\(kinds)), or 'none' (or false) for no "
                    + "authentication; found a boolean 'true' ('auth: none' sends the request without the suite's "
                    + "defaults.auth)"
            ])
        #expect(
            errors(suite(request: "      auth: nnoe")).first?.contains("found 'nnoe'; did you mean 'none'?") == true)
        // A kind's name alone says to write it as a key with its settings.
        #expect(
            errors(suite(request: "      auth: bearer")).first?.hasSuffix(
                "found 'bearer' (write the kind as a key with its settings: auth: {bearer: ...})") == true)
        #expect(errors(suite(request: "      auth: 0")).first?.contains("found a number '0'") == true)
        // `auth:` with nothing after it is an empty map, as before.
        #expect(errors(suite(request: "      auth:")).first?.contains("'auth' needs one of") == true)
    }
}

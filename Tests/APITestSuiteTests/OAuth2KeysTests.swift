import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `auth: {oauth2: ...}`: what each flow needs, what it refuses, and where the errors point.
struct OAuth2KeysTests {
    func suite(_ oauth2: String, defaults: Bool = false) -> String {
        if defaults {
            return """
                name: s
                defaults:
                  auth: {oauth2: {\(oauth2)}}
                tests:
                  - name: a
                    request: {url: "http://api.example.test/"}

                """
        }
        return """
            name: s
            tests:
              - name: a
                request:
                  url: "http://api.example.test/"
                  auth: {oauth2: {\(oauth2)}}

            """
    }

    @Test func everyFlowLoadsWithItsKeys() throws {
        let clientCredentials = try loadSuite(
            suite(
                "flow: clientCredentials, tokenURL: \"https://idp.example.test/token\", clientId: app, "
                    + "clientSecret: \"{{ env.SECRET }}\", scope: \"read write\", audience: api"),
            environment: ["SECRET": "s3cret-value"])
        guard case .oauth2(let spec)? = clientCredentials.tests[0].steps[0].request.auth else {
            Issue.record("no oauth2 auth")
            return
        }
        #expect(spec.flow == .clientCredentials)
        #expect(spec.clientAuthentication == .basic)
        #expect(spec.scope?.source == "read write")
        #expect(spec.audience?.source == "api")

        let password = try loadSuite(
            suite(
                "flow: password, tokenURL: oauth/token, clientId: app, username: u, password: p, clientAuth: body"),
            environment: [:])
        guard case .oauth2(let passwordSpec)? = password.tests[0].steps[0].request.auth else {
            Issue.record("no oauth2 auth")
            return
        }
        #expect(passwordSpec.flow == .password)
        #expect(passwordSpec.clientSecret == nil) // a public client
        #expect(passwordSpec.clientAuthentication == .body)

        let refresh = try loadSuite(
            suite("flow: refreshToken, tokenURL: oauth/token, clientId: app, refreshToken: r-1"), environment: [:])
        guard case .oauth2(let refreshSpec)? = refresh.tests[0].steps[0].request.auth else {
            Issue.record("no oauth2 auth")
            return
        }
        #expect(refreshSpec.refreshToken?.source == "r-1")

        let inDefaults = try loadSuite(
            suite("flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: b", defaults: true),
            environment: [:])
        guard case .oauth2? = inDefaults.defaults.auth else {
            Issue.record("no oauth2 auth in defaults")
            return
        }
    }

    @Test func anUnknownFlowIsLocatedWithASuggestion() {
        #expect(
            errors(suite("flow: clientCredential, tokenURL: t, clientId: a, clientSecret: b")) == [
                "suites/test.yaml:6:29: error: unknown OAuth2 flow 'clientCredential'; use clientCredentials, "
                    + "password, refreshToken; did you mean 'clientCredentials'?"
            ])
        #expect(
            errors(suite("flow: pasword, tokenURL: t, clientId: a, username: u, password: p")).first?.contains(
                "did you mean 'password'?") == true)
    }

    @Test func missingKeysAreNamedForTheFlow() {
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: t, clientId: a")) == [
                "suites/test.yaml:6:22: error: 'oauth2' with flow 'clientCredentials' needs a 'clientSecret'"
            ])
        let password = errors(suite("flow: password, clientId: a"))
        #expect(password.count == 3)
        #expect(password.contains { $0.contains("needs a 'tokenURL'") })
        #expect(password.contains { $0.contains("needs a 'username'") })
        #expect(password.contains { $0.contains("needs a 'password'") })
        #expect(
            errors(suite("flow: refreshToken, tokenURL: t, clientId: a")).first?.contains(
                "flow 'refreshToken' needs a 'refreshToken'") == true)
        #expect(errors(suite("tokenURL: t, clientId: a")).first?.contains("'oauth2' needs a 'flow'") == true)
    }

    @Test func keysOfAnotherFlowAndUnknownKeysAreRefused() {
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: b, username: u")) == [
                "suites/test.yaml:6:91: error: 'username' belongs to flow 'password', not 'clientCredentials'"
            ])
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: b, scpoe: x")).first?
                .contains("unknown key 'scpoe' in oauth2; did you mean 'scope'?") == true)
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: b, clientAuth: header"))
                .first?.contains("unknown clientAuth 'header'; use basic or body") == true)
    }

    @Test func aLiteralTokenURLMustBeHTTP() {
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: \"ftp://idp/token\", clientId: a, clientSecret: b"))
                .first?.contains("'tokenURL' must be an http or https URL, not 'ftp:'") == true)
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: \"https://idp/token#x\", clientId: a, clientSecret: b"))
                .first?.contains("must not have a fragment") == true)
    }

    @Test func placeholdersAreCheckedWhenTheSuiteLoads() {
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: \"{{ env.NOPE_SECRET }}\""))
                .first?.contains("NOPE_SECRET") == true)
        #expect(
            errors(suite("flow: clientCredentials, tokenURL: \"{{ idp }}/token\", clientId: a, clientSecret: b"))
                .first?.contains("'idp'") == true)
    }

    @Test func authIsGivenOnceEvenForOAuth2() {
        let text = """
            name: s
            tests:
              - name: a
                request:
                  url: "http://api.example.test/"
                  headers: {Authorization: "Bearer x"}
                  auth: {oauth2: {flow: clientCredentials, tokenURL: t, clientId: a, clientSecret: b}}

            """
        #expect(errors(text).first?.contains("authentication is given twice") == true)
    }
}

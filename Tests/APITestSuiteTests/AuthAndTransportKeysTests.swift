import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `auth:` and the transport keys of a request and of `defaults`: what loads, and the located errors.
struct AuthAndTransportKeysTests {
    func suite(request: String, defaults: String = "") -> String {
        let defaultsBlock = defaults.isEmpty ? "" : "defaults:\n\(defaults)\n"
        return
            "name: s\n\(defaultsBlock)tests:\n  - name: a\n    request:\n      url: \"http://api.example.test/\"\n\(request)\n"
    }

    @Test func everyAuthKindLoads() throws {
        let kinds: [(String, (AuthSpec) -> Bool)] = [
            ("basic: {user: u, password: p}", { if case .basic = $0 { true } else { false } }),
            ("basic: {username: u, password: p}", { if case .basic = $0 { true } else { false } }),
            ("bearer: \"{{ env.TOKEN }}\"", { if case .bearer = $0 { true } else { false } }),
            ("digest: {user: u, password: p}", { if case .digest = $0 { true } else { false } }),
            ("ntlm: {user: u, password: p}", { if case .ntlm = $0 { true } else { false } }),
            (
                "awsSigV4: {accessKey: AKID, secretKey: s, sessionToken: t, region: us-east-1, service: s3}",
                { if case .awsSigV4(let spec) = $0 { spec.sessionToken != nil } else { false } }
            ),
            ("netrc: true", { if case .netrc(nil) = $0 { true } else { false } }),
        ]
        for (text, matches) in kinds {
            let loaded = try loadSuite(suite(request: "      auth: {\(text)}"), environment: ["TOKEN": "x"])
            let auth = try #require(loaded.tests[0].steps[0].request.auth, "\(text)")
            #expect(matches(auth), "\(text)")
        }
    }

    @Test func authErrorsAreLocatedWithSuggestions() {
        #expect(
            errors(suite(request: "      auth: {digst: {user: u, password: p}}")) == [
                "suites/test.yaml:6:14: error: unknown key 'digst' in auth; did you mean 'digest'?"
            ])
        #expect(
            errors(suite(request: "      auth: {basic: {user: u, password: p}, bearer: t}")) == [
                "suites/test.yaml:6:45: error: 'auth' takes one kind; found both 'basic' and 'bearer'"
            ])
        #expect(
            errors(suite(request: "      auth: {digest: {user: u}}")).first?.contains("'digest' needs a 'password'")
                == true)
        #expect(
            errors(suite(request: "      auth: {awsSigV4: {accessKey: a, secretKey: s, region: us-east-1}}")).first?
                .contains("'awsSigV4' needs a 'service'") == true)
        #expect(errors(suite(request: "      auth: {netrc: false}")).first?.contains("takes true") == true)
        #expect(errors(suite(request: "      auth: {netrc: missing.netrc}")).first?.contains("missing.netrc") == true)
    }

    @Test func placeholdersInAuthAndTransportAreCheckedWhenTheSuiteLoads() {
        #expect(
            errors(suite(request: "      auth: {bearer: \"{{ env.NOT_SET_HERE }}\"}")).first?.contains("NOT_SET_HERE")
                == true)
        #expect(errors(suite(request: "      proxy: \"{{ prox }}\"")).first?.contains("'prox'") == true)
        #expect(
            errors(suite(request: "", defaults: "  auth: {bearer: \"{{ tokn }}\"}")).first?.contains("'tokn'") == true)
        #expect(errors(suite(request: "", defaults: "  resolve: \"{{ entry }}\"")).first?.contains("'entry'") == true)
    }

    @Test func awsSigV4WithAStreamedBodyIsAnErrorAtTheBody() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("payload", to: "body.bin", in: directory)
        let sigv4 = "      auth: {awsSigV4: {accessKey: a, secretKey: s, region: us-east-1, service: s3}}"
        let streamed = errors(suite(request: sigv4 + "\n      bodyFile: body.bin"), file: directory + "/suite.yaml")
        #expect(streamed.count == 1)
        #expect(streamed.first?.contains("'awsSigV4' signs a body held in memory; 'bodyFile' streams it") == true)
        #expect(errors(suite(request: sigv4 + "\n      body: payload"), file: directory + "/suite.yaml").isEmpty)
    }

    @Test func authInTwoPlacesIsAnError() {
        let both = suite(request: "      auth: {bearer: t}\n      basicAuth: {username: u, password: p}")
        #expect(errors(both).first?.contains("authentication is given twice: 'auth' and 'basicAuth'") == true)
        let header = suite(request: "      auth: {bearer: t}\n      headers: {Authorization: Bearer x}")
        #expect(errors(header).first?.contains("'auth' and an 'Authorization' header") == true)
        let defaults = suite(request: "", defaults: "  auth: {bearer: t}\n  headers: {Authorization: x}")
        #expect(errors(defaults).first?.contains("twice in defaults") == true)
    }

    @Test func transportKeysLoadInRequestsAndDefaults() throws {
        let loaded = try loadSuite(
            suite(
                request: """
                          resolve: ["api.example.test:443:127.0.0.1"]
                          httpVersion: 2-prior-knowledge
                          unixSocket: run/app.sock
                    """,
                defaults: """
                      connectTo: "api.example.test:80:127.0.0.1:8080"
                      httpVersion: 1.1
                      proxy: http://proxy.internal:3128
                      noProxy: localhost
                    """))
        let request = loaded.tests[0].steps[0].request
        let transport = try #require(request.transport).over(loaded.defaults.transport)
        #expect(transport.resolve?.map(\.source) == ["api.example.test:443:127.0.0.1"])
        #expect(transport.connectTo?.map(\.source) == ["api.example.test:80:127.0.0.1:8080"])
        #expect(transport.httpVersion == .http2PriorKnowledge)
        #expect(transport.unixSocket?.hasSuffix("/suites/run/app.sock") == true)
        #expect(transport.proxy?.source == "http://proxy.internal:3128")
        #expect(transport.noProxy?.source == "localhost")
    }

    @Test func transportErrorsAreLocated() {
        #expect(
            errors(suite(request: "      resolve: [\"api.example.test:443\"]")) == [
                "suites/test.yaml:6:17: error: invalid 'resolve' entry 'api.example.test:443': expected host:port:address"
            ])
        #expect(
            errors(suite(request: "      connectTo: \"a:99999:b:1\""))
                == [
                    "suites/test.yaml:6:18: error: invalid 'connectTo' entry 'a:99999:b:1': the port '99999' is not a number from 1 to 65535"
                ])
        #expect(errors(suite(request: "      httpVersion: 3")).first?.contains("HTTP/3 is not available") == true)
        #expect(
            errors(suite(request: "      httpVersion: \"2-prior-knowlege\"")).first?.contains(
                "did you mean '2-prior-knowledge'") == true)
        #expect(errors(suite(request: "      conectTo: x")).first?.contains("did you mean 'connectTo'") == true)
    }

    @Test func entriesWithIPv6AddressesAndEmptyPartsAreAccepted() {
        #expect(TransportEntry.resolveProblem("api.example.test:443:[::1],127.0.0.1") == nil)
        #expect(TransportEntry.resolveProblem("+api.example.test:443:127.0.0.1") == nil)
        #expect(TransportEntry.connectToProblem("::[::1]:8443") == nil)
        #expect(TransportEntry.connectToProblem("api.example.test:443:staging.internal:8443") == nil)
        #expect(TransportEntry.resolveProblem("api.example.test:0:127.0.0.1") != nil)
        #expect(TransportEntry.resolveProblem("api.example.test:443:127.0.0.1,") != nil)
    }
}

import APITestJSON
import APITestSuiteWriting
import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// How requests, auth, checks and captures of a collection land in the suite.
struct PostmanImporterMappingTests {
    /// The suite of a collection holding `items` (JSON), with collection `variables`.
    func suite(_ items: String, variables: String = "[]") throws -> SuiteDocument {
        let text = "{\"info\": {\"name\": \"c\"}, \"variable\": \(variables), \"item\": [\(items)]}"
        let collection = try PostmanCollectionDecoder(file: "c.json").decode(Array(text.utf8))
        return PostmanImporter(collection: collection, files: ["c.json"]).suite()
    }

    /// A request item named `name` to `url` with a test script of `lines`.
    func item(_ name: String, _ url: String, auth: String? = nil, tests: [String] = []) -> String {
        let script = tests.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",")
        return """
            {"name": "\(name)", "request": {"url": "\(url)"\(auth.map { ", \"auth\": \($0)" } ?? "")},
             "event": [{"listen": "test", "script": {"exec": [\(script)]}}]}
            """
    }

    @Test func authKinds() throws {
        let suite = try suite(
            [
                item(
                    "digest", "http://h/1",
                    auth:
                        #"{"type": "digest", "digest": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"}, {"key": "realm", "value": "r"}]}"#
                ),
                item(
                    "ntlm", "http://h/2",
                    auth:
                        #"{"type": "ntlm", "ntlm": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"}, {"key": "domain", "value": "CORP"}]}"#
                ),
                item(
                    "aws", "http://h/3",
                    auth:
                        #"{"type": "awsv4", "awsv4": [{"key": "accessKey", "value": "A"}, {"key": "secretKey", "value": "S"}, {"key": "region", "value": "eu-west-1"}, {"key": "service", "value": "s3"}]}"#
                ),
                item(
                    "apikey", "http://h/4?a=1",
                    auth:
                        #"{"type": "apikey", "apikey": [{"key": "key", "value": "api_key"}, {"key": "value", "value": "{{k}}"}, {"key": "in", "value": "query"}]}"#
                ),
                item(
                    "oauth2", "http://h/5",
                    auth:
                        #"{"type": "oauth2", "oauth2": [{"key": "accessToken", "value": "tok"}, {"key": "addTokenTo", "value": "header"}]}"#
                ),
                item("hawk", "http://h/6", auth: #"{"type": "hawk", "hawk": [{"key": "authId", "value": "x"}]}"#),
            ].joined(separator: ","), variables: #"[{"key": "k", "value": "v"}]"#)
        let requests = suite.tests.map(\.request)
        // Secrets typed into the auth settings are read from the environment (PostmanTypedCredentialTests).
        #expect(requests[0].auth == .digest(user: "u", password: "{{ env.DIGEST_PASSWORD }}"))
        #expect(requests[1].auth == .ntlm(user: "CORP\\u", password: "{{ env.NTLM_PASSWORD }}"))
        #expect(
            requests[2].auth
                == .awsSigV4(
                    .init(
                        accessKey: "{{ env.AWSV4_ACCESS_KEY }}", secretKey: "{{ env.AWSV4_SECRET_KEY }}",
                        region: "eu-west-1", service: "s3")))
        #expect(requests[3].url == "http://h/4?a=1&api_key={{ k }}")
        #expect(requests[4].headers == [SuiteDocument.Header("Authorization", "Bearer {{ env.OAUTH2_ACCESS_TOKEN }}")])
        #expect(requests[5].auth == nil && requests[5].headers.isEmpty)
        let notes = suite.allNotes.map(\.rendered)
        #expect(notes.contains { $0.hasPrefix("c › digest: digest auth: realm not translated") })
        #expect(notes.contains { $0.hasPrefix("c › oauth2: oauth2: the access token the collection holds") })
        #expect(notes.contains { $0.hasPrefix("c › hawk: auth 'hawk' is not translated") })
        _ = try SuiteDocumentRendererTests.load(
            suite,
            environment: [
                "DIGEST_PASSWORD": "p", "NTLM_PASSWORD": "p", "AWSV4_ACCESS_KEY": "A", "AWSV4_SECRET_KEY": "S",
                "OAUTH2_ACCESS_TOKEN": "tok",
            ])
    }

    @Test func oauth2GrantsApitestCanRunAreFetchedNotStored() throws {
        let suite = try suite(
            [
                item(
                    "client", "http://h/1",
                    auth: #"{"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"}, "#
                        + #"{"key": "accessTokenUrl", "value": "{{idp}}/oauth/token"}, {"key": "clientId", "value": "app"}, "#
                        + #"{"key": "clientSecret", "value": "{{secret}}"}, {"key": "scope", "value": "read write"}, "#
                        + #"{"key": "client_authentication", "value": "body"}, {"key": "accessToken", "value": "stale"}, "#
                        + #"{"key": "tokenRequestParams", "value": [{"key": "audience", "value": "https://api", "send_as": "request_body"}, "#
                        + #"{"key": "resource", "value": "r", "send_as": "request_body"}]}]}"#),
                item(
                    "password", "http://h/2",
                    auth: #"{"type": "oauth2", "oauth2": {"grant_type": "password_credentials", "#
                        + #""accessTokenUrl": "https://idp/token", "clientId": "web", "username": "alice", "#
                        + #""password": "{{pw}}"}}"#),
                item(
                    "code", "http://h/3",
                    auth: #"{"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "authorization_code"}, "#
                        + #"{"key": "accessTokenUrl", "value": "https://idp/token"}, {"key": "accessToken", "value": "tok"}]}"#
                ),
            ].joined(separator: ","),
            variables:
                #"[{"key": "idp", "value": "https://idp"}, {"key": "secret", "value": "s"}, {"key": "pw", "value": "p"}]"#
        )
        let requests = suite.tests.map(\.request)
        #expect(
            requests[0].auth
                == .oauth2(
                    .init(
                        flow: .clientCredentials, tokenURL: "{{ idp }}/oauth/token", clientID: "app",
                        clientSecret: "{{ secret }}", scope: "read write", audience: "https://api",
                        clientAuthentication: .body))
        )
        #expect(requests[0].headers.isEmpty)
        #expect(
            requests[1].auth
                == .oauth2(
                    .init(
                        flow: .password, tokenURL: "https://idp/token", clientID: "web", username: "alice",
                        password: "{{ pw }}")))
        // The authorization code grant needs a browser: the stored token is sent, as Newman does.
        #expect(requests[2].auth == nil)
        #expect(requests[2].headers == [SuiteDocument.Header("Authorization", "Bearer {{ env.OAUTH2_ACCESS_TOKEN }}")])
        let notes = suite.allNotes.map(\.rendered)
        #expect(
            notes.contains { $0.hasPrefix("c › client: oauth2: token request parameters resource are not translated") })
        #expect(notes.contains { $0.hasPrefix("c › client: oauth2: the stored access token is not kept") })
        // `secret` names a credential: the suite reads it from the environment (`pw` does not).
        #expect(suite.variables.first { $0.name == "secret" }?.value == "{{ env.SECRET }}")
        let loaded = try SuiteDocumentRendererTests.load(
            suite, environment: ["SECRET": "s", "OAUTH2_ACCESS_TOKEN": "tok"])
        #expect(loaded.text.contains("oauth2:"), "\(loaded.text)")
    }

    @Test func statusChecksThatStatusCannotSayKeepEveryStatusAllowed() {
        let expect = PostmanImporter.expectation([
            ScriptCheck(.status, "notEquals", 500), ScriptCheck(.jsonpath("$.a"), "equals", 1),
            ScriptCheck(.jsonpath("$.a"), "type", "number"), ScriptCheck(.header("X"), "exists", true),
        ])
        #expect(expect.status == PostmanImporter.anyStatus)
        #expect(expect.json.map(\.path) == ["$.a"])
        #expect(expect.assertions == [["jsonpath": "$.a", "type": "number"], ["query": "status", "notEquals": 500]])
        let classes = PostmanImporter.expectation([
            ScriptCheck(.status, "equals", 404), ScriptCheck(.status, "oneOf", ["4xx", "5xx"]),
        ])
        #expect(classes.status == [404])
        #expect(classes.assertions == [["query": "status", "between": [400, 599]]])
    }

    @Test func requestsUsingCapturesJoinTheTestThatCapturesThem() throws {
        let suite = try suite(
            [
                item("login", "http://h/login", tests: ["pm.environment.set('token', pm.response.json().token)"]),
                item("other", "http://h/other", tests: ["pm.environment.set('id', pm.response.json().id)"]),
                item("plain", "http://h/plain"),
                item("both", "http://h/x/{{id}}?t={{token}}"),
                item("again", "http://h/y?t={{token}}"),
            ].joined(separator: ","))
        #expect(suite.tests.map(\.name) == ["login", "plain"])
        #expect(suite.tests[0].laterSteps.map(\.source) == ["c › other", "c › both", "c › again"])
        #expect(suite.tests[0].captures.map(\.name) == ["token"])
        #expect(suite.variables.isEmpty)
        _ = try SuiteDocumentRendererTests.load(suite)
    }

    @Test func aNameUsedBeforeItIsCapturedKeepsASuiteVariable() throws {
        let suite = try suite(
            [
                item("first", "http://h/a?t={{token}}"),
                item("login", "http://h/login", tests: ["pm.environment.set('token', pm.response.json().token)"]),
                item("after", "http://h/b?t={{token}}"),
            ].joined(separator: ","))
        #expect(suite.tests.map(\.name) == ["first", "login"])
        #expect(suite.variables.map(\.name) == ["token"])
        _ = try SuiteDocumentRendererTests.load(suite)
    }
}

import Foundation
import Testing

/// Issue 40 item 3: `graphql:` request bodies (inline or from a .graphql file, variables, operationName, POST JSON
/// or GET), a response with `errors` failing the step unless `expect.graphql.errors` expects them, `data` checked
/// with `json:`, and located load errors; against strawberry-graphql on uvicorn (from PyPI).
@Suite(.serialized) struct GraphQLTests {
    @Test func queriesWithAndWithoutErrors() async throws {
        let server = try SSEStarletteServer(app: "strawberry_app:app")
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: a user
                request:
                  method: POST
                  url: /
                  graphql:
                    query: "query One($id: Int!) { user(id: $id) { id name } }"
                    variables: {id: "{{ wanted }}"}
                    operationName: One
                expect:
                  json: {$.data.user.name: ada}
              - name: from a file
                request: {method: POST, url: /, graphql: {file: users.graphql}}
                expect:
                  json:
                    "$.data.users[*].name": [ada, grace]
              - name: with GET
                request: {method: GET, url: /, graphql: {query: "query Hi($n: String!) { hello(name: $n) }", variables: {n: x}}}
                expect:
                  json: {$.data.hello: hello x}
              - name: expected errors
                request: {method: POST, url: /, graphql: {query: "{ user(id: 3) { id } }"}}
                expect:
                  graphql:
                    errors: {count: 1, message: {contains: "not found"}, path: [user]}
                  json: {$.data.user: null}
              - name: unexpected errors
                request: {method: POST, url: /, graphql: {query: "{ user(id: 9) { id } }"}}
              - name: wrong expected errors
                request: {method: POST, url: /, graphql: {query: "{ user(id: 9) { id } }"}}
                expect:
                  graphql: {errors: {message: {contains: "forbidden"}}}
            variables: {wanted: 1}
            """)
        let directory = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{ users { name } }\n".write(
            to: directory.appendingPathComponent("users.graphql"), atomically: true, encoding: .utf8)
        let result = try await runAPITest(["run", file.path, "--jobs", "1"])
        let out = result.stdout
        #expect(result.exitCode == 1, "\(out)\(result.stderr)")
        for name in ["a user", "from a file", "with GET", "expected errors"] {
            #expect(out.contains("✔ suite › \(name)"), "\(name): \(out)")
        }
        #expect(out.contains("✘ suite › unexpected errors"), "\(out)")
        #expect(out.contains(#"the GraphQL response has 1 error: user 9 not found (path ["user"])"#), "\(out)")
        #expect(out.contains("✘ suite › wrong expected errors"), "\(out)")
        #expect(out.contains("$.errors[0].message: expected to contain"), "\(out)")
    }

    @Test func loadErrorsAreLocated() async throws {
        let file = try writeTemporarySuite(
            """
            tests:
              - name: both
                request: {method: POST, url: "http://127.0.0.1:9/", graphql: {query: "{ a }", file: a.graphql}}
              - name: missing
                request: {method: POST, url: "http://127.0.0.1:9/", graphql: {file: missing.graphql}}
              - name: none
                request: {method: POST, url: "http://127.0.0.1:9/", graphql: {variables: {a: 1}}}
              - name: get with placeholders
                request: {method: GET, url: "http://127.0.0.1:9/", graphql: {query: "{ a }", variables: {a: "{{ x }}"}}}
              - name: two bodies
                request: {method: POST, url: "http://127.0.0.1:9/", json: {}, graphql: {query: "{ a }"}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["validate", file.path])
        let text = result.stdout + result.stderr
        #expect(result.exitCode != 0)
        #expect(text.contains("'graphql' takes 'query' or 'file', not both"), "\(text)")
        #expect(text.contains("missing.graphql"), "\(text)")
        #expect(text.contains("'graphql' needs a 'query' or a 'file'"), "\(text)")
        #expect(text.contains("with method GET, 'variables' cannot hold placeholders"), "\(text)")
        #expect(text.contains("a request takes one body; found both 'json' and 'graphql'"), "\(text)")
    }

    @Test func exportCurlSendsTheOperation() async throws {
        let file = try writeTemporarySuite(
            """
            tests:
              - name: q
                request:
                  method: POST
                  url: "http://127.0.0.1:9/graphql"
                  graphql: {query: "{ users { id } }", variables: {limit: 2}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["export", "curl", file.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"{"query":"{ users { id } }","variables":{"limit":2}}"#), "\(result.stdout)")
    }

    /// `export curl` of a subscription or a `websocket:` step says why there is no command, instead of calling the
    /// ws:// URL unsupported and asking for http or https as if the suite were wrong.
    @Test func exportCurlSaysAWebSocketConversationHasNoCommand() async throws {
        let file = try writeTemporarySuite(
            """
            name: ws
            baseURL: http://127.0.0.1:9
            tests:
              - name: sub
                request:
                  url: ws://127.0.0.1:9/graphql
                  graphql: {query: "subscription { count(to: 3) }"}
                expect:
                  events: {count: 3}
              - name: socket
                steps:
                  - websocket:
                      url: ws://127.0.0.1:9/ws
                      actions:
                        - send: {text: hi}
                  - request: {url: /after}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["export", "curl", file.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let note = "# not exported: a WebSocket conversation (a websocket: step or a GraphQL subscription)"
        #expect(result.stdout.components(separatedBy: note).count == 3, "\(result.stdout)")
        #expect(!result.stdout.contains("use http or https"), "\(result.stdout)")
        #expect(result.stdout.contains("http://127.0.0.1:9/after"), "the step after it is exported: \(result.stdout)")
    }
}

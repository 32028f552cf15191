import Foundation
import Testing

/// Issue 40: GraphQL subscriptions over WebSocket (`graphql-transport-ws`): a `graphql:` request on a `ws://` URL
/// whose `next` payloads are checked as `expect.events`; against strawberry-graphql on uvicorn (from PyPI), whose
/// subscriptions yield N values, raise, or never end.
@Suite(.serialized) struct GraphQLSubscriptionTests {
    @Test func subscriptionsAreCheckedAsEventStreams() async throws {
        let server = try SSEStarletteServer(app: "strawberry_app:app")
        defer { server.stop() }
        let ws = server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
        let file = try writeTemporarySuite(
            """
            tests:
              - name: counts to five
                steps:
                  - request:
                      url: \(ws)/
                      graphql: {query: "subscription Count($to: Int!) { count(to: $to) }", variables: {to: 5}}
                    expect:
                      events:
                        count: 5
                        first: {event: next, id: "1", json: {$.data.count: 0}}
                        last: {json: {$.data.count: 4}}
                        each: {json: {$.data.count: {type: integer}}}
                        nth: {2: {json: {$.data.count: 2}}}
                    capture:
                      last_count: {event: last, path: $.data.count}
                  - request: {method: POST, url: "\(server.baseURL)/", graphql: {query: "{ hello(name: \\"n{{ last_count }}\\") }"}}
                    expect:
                      json: {$.data.hello: hello n4}
              - name: ended by until
                request: {url: "{{ wsBase }}/", graphql: {query: "subscription { forever }"}}
                expect:
                  events:
                    until: {json: {$.data.forever: 3}}
                    count: 3
              - name: unexpected error in a next payload
                request: {url: \(ws)/, graphql: {query: "subscription { failing(after: 2) }"}}
              - name: expected error
                request: {url: \(ws)/, graphql: {query: "subscription { failing(after: 1) }"}}
                expect:
                  graphql: {errors: {count: 1, message: {contains: "boom after 1"}}}
                  events: {count: 2}
              - name: an invalid operation
                request: {url: \(ws)/, graphql: {query: "subscription { nope }"}}
              - name: too slow
                request: {url: \(ws)/, graphql: {query: "subscription { count(to: 3, gap: 3) }"}}
                expect:
                  events: {within: {first: 300ms}}
            variables: {wsBase: "\(ws)"}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path, "--jobs", "1"])
        let out = result.stdout
        #expect(result.exitCode == 1, "\(out)\(result.stderr)")
        for name in ["counts to five", "ended by until", "expected error"] {
            #expect(out.contains("✔ suite › \(name)"), "\(name): \(out)")
        }
        #expect(out.contains("✘ suite › unexpected error in a next payload"), "\(out)")
        #expect(out.contains("the GraphQL response has 1 error: boom after 2"), "\(out)")
        #expect(out.contains("✘ suite › an invalid operation"), "\(out)")
        #expect(out.contains("Cannot query field 'nope' on type 'Subscription'"), "\(out)")
        #expect(out.contains("✘ suite › too slow"), "\(out)")
        #expect(out.contains("no first event within 300 ms"), "\(out)")
        #expect(!out.contains("the stream ended"), "no follow-on failure of the stream's checks: \(out)")
    }

    @Test func theUpgradeAndTheMessagesAreInTheReports() async throws {
        let server = try SSEStarletteServer(app: "strawberry_app:app")
        defer { server.stop() }
        let ws = server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
        let file = try writeTemporarySuite(
            """
            tests:
              - name: verbose
                request:
                  url: \(ws)/
                  headers: {X-Token: "{{ env.SUB_TOKEN }}"}
                  graphql: {query: "subscription Echo { count(to: 2) } # s3cr3t-t0ken", operationName: Echo}
                expect:
                  events: {count: 3}
            """)
        let directory = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        let result = try await runAPITest(
            ["run", file.path, "--verbose", "--report-json", report.path], environment: ["SUB_TOKEN": "s3cr3t-t0ken"])
        let out = result.stdout
        #expect(result.exitCode == 1, "\(out)\(result.stderr)")
        #expect(out.contains("events count: expected 3, got 2"), "\(out)")
        #expect(out.contains(#"> text "{\"id\":\"1\",\"type\":\"subscribe\""#), "\(out)")
        #expect(out.contains(#"< text "{\"id\":\"1\",\"type\":\"complete\"}""#), "\(out)")
        #expect(!out.contains("s3cr3t-t0ken"), "\(out)")
        let json = try String(contentsOf: report, encoding: .utf8)
        #expect(json.contains("graphql-transport-ws"), "\(json.prefix(2000))")
        #expect(!json.contains("s3cr3t-t0ken"))
    }

    @Test func aSubscriptionHasNoMethodToChoose() async throws {
        let file = try writeTemporarySuite(
            """
            tests:
              - name: get
                request: {method: GET, url: "ws://127.0.0.1:9/", graphql: {query: "subscription { a }"}}
              - name: http scheme elsewhere still refused
                request: {url: "ftp://127.0.0.1:9/", graphql: {query: "{ a }"}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["validate", file.path])
        let text = result.stdout + result.stderr
        #expect(result.exitCode != 0)
        #expect(text.contains("sends its operation in a subscribe message; remove 'method: GET'"), "\(text)")
        #expect(text.contains("unsupported URL scheme 'ftp'"), "\(text)")
        #expect(!text.contains("unsupported URL scheme 'ws'"), "\(text)")
    }
}

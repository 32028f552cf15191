import Foundation
import Testing

/// `when`, a step's `forEach` and functions end to end against the demo API: Hurl #1862's "delete only when the
/// lookup found something", Hurl #5034's "delete each returned id" for 0, 1 and 1,000 ids with every iteration a
/// named step in JUnit, TAP 14 and HTML, and an HMAC-signed request the demo verifies with its own HMAC.
@Suite(.serialized) struct ControlFlowTests {
    static func reports(_ folder: URL) -> [String: URL] {
        ["junit": "junit.xml", "tap": "tap.txt", "json": "report.json", "html": "report.html"].mapValues {
            folder.appendingPathComponent($0)
        }
    }

    static func run(
        _ suite: URL, _ extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> (
        ProcessResult, [String: String]
    ) {
        let files = reports(suite.deletingLastPathComponent())
        let result = try await runAPITest(
            [
                "run", suite.path, "--report-junit", files["junit"]!.path, "--report-tap", files["tap"]!.path,
                "--tap-version", "14", "--report-json", files["json"]!.path, "--report-html", files["html"]!.path,
            ] + extra, environment: environment)
        var texts: [String: String] = [:]
        for (name, url) in files { texts[name] = try String(contentsOf: url, encoding: .utf8) }
        return (result, texts)
    }

    @Test func aStepRunsOnlyWhenTheLookupFoundSomething() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: lookup
            baseURL: \(demo.baseURL)/
            setup:
              - request: {method: POST, url: api/users, json: {name: Ann, email: ann@example.com}}
                expect: {status: 201}
            tests:
              - name: found
                steps:
                  - request: {url: "api/users/lookup?email=ann@example.com"}
                    capture: {user.id: {jsonpath: $.id}}
                  - name: delete the user
                    when: "{{ user.id }} != null"
                    request: {method: DELETE, url: "api/users/{{ user.id }}"}
                    expect: {status: 204}
              - name: not found
                steps:
                  - request: {url: "api/users/lookup?email=nobody@example.com"}
                    capture: {user.id: {jsonpath: $.id}}
                  - name: delete the user
                    when: "{{ user.id }} != null"
                    request: {method: DELETE, url: "api/users/{{ user.id }}"}
                    expect: {status: 204}
              - name: only in production
                when: '{{ env.STAGE }} == "prod"'
                request: {url: health}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let (result, reports) = try await Self.run(suite, ["--jobs", "1"], environment: ["STAGE": "staging"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("4 tests: 3 passed, 1 skipped"), "\(result.stdout)") // setup counts
        #expect(
            result.stdout.contains(#"only in production (0 ms) - when: false ({{ env.STAGE }} == "prod")"#)
                || result.stdout.contains(#"- when: false ({{ env.STAGE }} == "prod")"#), "\(result.stdout)")
        // The skipped step is reported as such, with the condition, in every report.
        let condition = "when: false ({{ user.id }} != null)"
        #expect(reports["tap"]!.contains("ok 2 - delete the user # SKIP \(condition)"), "\(reports["tap"]!)")
        #expect(reports["junit"]!.contains("delete the user at "), "\(reports["junit"]!)")
        #expect(reports["junit"]!.contains("skipped: \(condition)"))
        #expect(reports["html"]!.contains("skipped: when: false ({{ user.id }} != null)"))
        let json = try JSONSerialization.jsonObject(with: Data(reports["json"]!.utf8)) as? [String: Any]
        let suites = json?["suites"] as? [[String: Any]]
        let tests = suites?.first?["tests"] as? [[String: Any]] ?? []
        let notFound = try #require(tests.first { $0["name"] as? String == "not found" })
        let steps = notFound["steps"] as? [[String: Any]] ?? []
        #expect(steps.count == 2)
        #expect(steps.last?["skipped"] as? String == condition)
        #expect(steps.last?["label"] as? String == "delete the user")
        let found = try #require(tests.first { $0["name"] as? String == "found" })
        #expect((found["steps"] as? [[String: Any]])?.last?["skipped"] == nil)
    }

    @Test(arguments: [0, 1, 1000])
    func eachReturnedIdIsDeletedAsANamedStep(count: Int) async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let group = "g\(count)"
        let suite = try writeTemporarySuite(
            """
            name: loop
            baseURL: \(demo.baseURL)/
            tests:
              - name: delete every item
                steps:
                  - request: {method: POST, url: "api/items?group=\(group)&count=\(count)"}
                    expect: {status: 201}
                  - request: {url: "api/items?group=\(group)"}
                    capture: {ids: {jsonpath: $.ids}}
                  - name: delete item
                    forEach: {items: "{{ ids }}", as: id}
                    request: {method: DELETE, url: "api/items/{{ id }}"}
                    expect: {status: 204}
                    capture: {deleted: {query: status}}
                  - request: {url: "api/items?group=\(group)"}
                    expect: {json: {$.count: 0}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let clock = ContinuousClock()
        let start = clock.now
        let (result, reports) = try await Self.run(suite)
        let elapsed = clock.now - start
        #expect(result.exitCode == 0, "\(result.stdout.suffix(2000))")
        #expect(elapsed < .seconds(60), "1,000 deletions took \(elapsed)")
        let tap = reports["tap"]!
        if count == 0 {
            #expect(tap.contains("ok 3 - delete item › no items # SKIP forEach: no items in '{{ ids }}'"), "\(tap)")
        } else {
            #expect(tap.contains("    1..\(count + 3)"), "\(tap.prefix(600))")
            #expect(tap.contains("ok 3 - delete item › 1/\(count) (id="), "\(tap.prefix(600))")
            #expect(tap.contains("delete item › \(count)/\(count) (id="))
            #expect(reports["junit"]!.contains("delete item › \(count)/\(count) (id="))
            #expect(reports["html"]!.contains("delete item › \(count)/\(count) (id="))
            let json = reports["json"]!
            #expect(json.components(separatedBy: #""label" : "delete item › "#).count - 1 == count)
        }
    }

    @Test func aGroupOfStepsRunsForEachElementWithItsOwnCaptures() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: group
            baseURL: \(demo.baseURL)/
            tests:
              - name: check then delete each item
                steps:
                  - request: {method: POST, url: "api/items?group=grouped&count=3"}
                    capture: {ids: {jsonpath: $.ids}}
                  - name: item
                    forEach: {items: "{{ ids }}", as: id}
                    steps:
                      - request: {url: "api/items?group=grouped"}
                        capture: {before: {jsonpath: $.count}}
                      - name: delete
                        request: {method: DELETE, url: "api/items/{{ id }}"}
                        expect: {status: 204}
                      - request: {url: "api/items?group=grouped"}
                        expect: {json: {$.count: "{{ toInt(before) }}"}}
                        when: "false"
                  - name: never
                    when: "length(ids) > 3"
                    steps:
                      - request: {method: DELETE, url: "api/items/1"}
                  - request: {url: "api/items?group=grouped"}
                    expect: {json: {$.count: 0}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let (result, reports) = try await Self.run(suite)
        #expect(result.exitCode == 0, "\(result.stdout)")
        let tap = reports["tap"]!
        // 1 + 3 iterations × 3 steps + the skipped group + 1.
        #expect(tap.contains("    1..12"), "\(tap)")
        #expect(tap.contains("ok 2 - item › 1/3 (id="), "\(tap)")
        #expect(tap.contains(" › delete: DELETE "), "\(tap)")
        #expect(tap.contains("# SKIP when: false (false)"), "\(tap)")
        #expect(tap.contains("ok 11 - never # SKIP when: false (length(ids) > 3)"), "\(tap)")
    }

    @Test func anHMACSignedRequestIsVerifiedByTheDemo() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: signed
            baseURL: \(demo.baseURL)/
            defaults:
              headers:
                X-Timestamp: "{{ now.unix }}"
            tests:
              - name: signed with the key
                request:
                  url: signed/orders
                  headers:
                    X-Signature: '{{ hmacSHA256(env.SIGNING_KEY, "GET\\n/signed/orders\\n" + toString(now.unix)) }}'
                expect: {status: 200, json: {$.verified: true}}
              - name: signed with another key
                request:
                  method: POST
                  url: signed/orders
                  headers:
                    X-Signature: '{{ hmacSHA256("not-the-key", "POST\\n/signed/orders\\nfixed") }}'
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let (result, reports) = try await Self.run(
            suite, ["--verbose"], environment: ["SIGNING_KEY": "demo-signing-key"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("2 tests: 1 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("expected status 200, got 401"), "\(result.stdout)")
        // The signature made from the secret key is a secret: masked in every output.
        #expect(!result.stdout.contains("demo-signing-key"))
        // The only signature shown whole is the one made from a key that is not secret (a fixed message, so that
        // its hex is known: HMAC-SHA256("not-the-key", "POST\n/signed/orders\nfixed")).
        let publicSignature = "e8fe93b378dedf94dcce817f786e39892e6911503bab28f82967276b7c555a52"
        #expect(result.stdout.contains("X-Signature: \(publicSignature)"), "\(result.stdout)")
        for text in [result.stdout] + Array(reports.values) {
            let shown = text.matches(of: /X-Signature: ([0-9a-f]{8,})/).map { String($0.output.1) }
            #expect(shown.allSatisfy { $0 == publicSignature }, "\(shown)")
        }
        #expect(result.stdout.contains("X-Signature: •••••"), "\(result.stdout)")
    }
}

import Foundation
import Testing

/// Edge cases of the suite language found in review, each run through the binary against the demo API.
@Suite final class LanguageEdgeTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Each test's instance removes the folder it made.
    deinit { try? FileManager.default.removeItem(at: directory) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    @Test func credentialsNeverShowInFilterProblems() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let secret = "!" + String(repeating: "SECRETPART-", count: 8)
        let suite = try write(
            "leak.yaml",
            """
            baseURL: \(demo.baseURL)
            variables: {token: "{{ env.EDGE_TOKEN }}"}
            tests:
              - name: cookie value
                request: {url: "/cookies/set?session=supersecretcookievalue"}
                expect:
                  headers: {Set-Cookie: {filters: [toInt], equals: 1}}
                  cookies: {session: {filters: [toInt], equals: 1}}
              - name: long secret
                request: {url: /bearer, headers: {Authorization: "Bearer {{ token }}"}}
                expect: {json: {$.token: {filters: [base64Decode], equals: x}}}
            """)
        let report = directory.appendingPathComponent("leak.json").path
        let result = try await run(["run", suite, "--report-json", report], environment: ["EDGE_TOKEN": secret])
        #expect(result.exitCode == 1)
        let json = try String(contentsOfFile: report, encoding: .utf8)
        // The cookie is in the request URL (the test's own doing); no failure message may show it.
        let messages = result.stdout.split(separator: "\n").filter { $0.contains("filter") }
        #expect(messages.count == 3)
        #expect(!messages.contains { $0.contains("supersecretcookievalue") })
        #expect(!json.contains("got string \"session=supersecretcookievalue"))
        #expect(!(result.stdout + result.stderr + json).contains("SECRETPART"))
        #expect(result.stdout.contains("filter 'toInt' needs a number or a numeric string, got string •••••"))
    }

    @Test func anIncludedVariableCanBeOverriddenByTheSuite() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        try write(
            "inc/common.yaml",
            "variables: {port: \"1\", base: \"http://127.0.0.1:{{ port }}/\"}\nbaseURL: \"{{ base }}\"\n")
        let suite = try write(
            "override.yaml",
            "include: inc/common.yaml\nvariables: {port: \"\(demo.port)\"}\ntests: [{name: t, request: {url: health}}]\n"
        )
        let result = try await run(["run", suite])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func retriesStopOnceUntilHoldsAndNeverResendWhatCannotBeBuilt() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "until.yaml",
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: until holds, expect fails
                request: {url: /json}
                retry: {attempts: 3, interval: 10ms, until: {status: 200}}
                expect: {json: {$.slideshow.title: nope}}
              - name: until with one attempt
                request: {url: /json}
                retry: {attempts: 1, until: {status: 201}}
              - name: a bad URL is not retried
                request: {url: "http://[oops/"}
                retry: {attempts: 4, interval: 10ms}
            """)
        let report = directory.appendingPathComponent("until.json").path
        let result = try await run(["run", suite, "--jobs", "1", "--report-json", report])
        #expect(result.exitCode == 1 || result.exitCode == 2)
        if result.exitCode == 1 {
            #expect(result.stdout.contains("until holds, expect fails ("))
            #expect(result.stdout.components(separatedBy: "never held after").count == 2, "\(result.stdout)")
            #expect(result.stdout.contains("'until' never held after 1 attempt,"))
            #expect(result.stdout.contains("$.slideshow.title: expected \"nope\""))
            #expect(result.stdout.contains("✘ until › until with one attempt"))
            let json = try String(contentsOfFile: report, encoding: .utf8)
            #expect(!json.contains("\"attempts\" : 3") && !json.contains("\"attempts\" : 4"), "\(json)")
        }
    }

    @Test func nodeListsCapturesAndTypedPlaceholders() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        try write("codes.csv", "code\n200\n404\n")
        let suite = try write(
            "lists.yaml",
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: nothing selected is an empty list
                request: {url: /api/users}
                expect:
                  json:
                    "$.users[?@.name=='zed']": {isEmpty: true}
                    "$.users[?@.name=='zed'].id": []
                    "$.users[?@.name=='zed'].name": {notExists: true}
              - name: xpath captures the first node
                steps:
                  - request: {url: /xml}
                    capture: {title: {xpath: //title}}
                  - request: {method: POST, url: /echo, json: {t: "{{ title }}"}}
                    expect: {json: {$.json.t: Swift on the Server}}
              - name: "status {{ code }}"
                forEach: {file: codes.csv}
                request: {url: "/status/{{ code }}"}
                expect:
                  status: [2xx, 4xx]
                  json: {$.status: "{{ code }}"}
                  assert: [{query: status, equals: "{{ code }}"}, {query: status, startsWith: "{{ code }}"}]
            """)
        let result = try await run(["run", suite])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func contentTypesDiamondsAndSkippedSuites() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--log"])
        defer { demo.stop() }
        try write("d/common.yaml", "setup:\n  - request: {url: /status/200?common-setup}\n")
        try write("d/a.yaml", "include: common.yaml\n")
        try write("d/b.yaml", "include: common.yaml\n")
        let suite = try write(
            "diamond.yaml",
            """
            baseURL: \(demo.baseURL)
            include: [d/a.yaml, d/b.yaml]
            response: {acceptableContentTypes: [application/json]}
            tests:
              - name: no body, no content type to check
                steps:
                  - request: {method: POST, url: /api/users, json: {name: edge}}
                    capture: {id: {jsonpath: $.id}}
                  - request: {method: DELETE, url: "/api/users/{{ id }}"}
                    expect: {status: 204}
            """)
        let result = try await run(["run", suite])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        // The shared setup ran once, though two included files include it.
        #expect(result.stdout.components(separatedBy: "› setup").count == 2)
        let skipped = try write(
            "skipped.yaml",
            """
            baseURL: \(demo.baseURL)
            setup: [{request: {url: /status/500}}]
            tests: [{name: later, skip: not ready, request: {url: /json}}]
            """)
        let skippedRun = try await run(["run", skipped])
        #expect(skippedRun.exitCode == 0, "\(skippedRun.stdout)")
        #expect(!skippedRun.stdout.contains("setup"))
    }
}

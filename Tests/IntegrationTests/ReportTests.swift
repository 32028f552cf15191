import APITestTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The report files of `apitest run` (JUnit XML, TAP, JSON, HTML), checked with the programs that consume them:
/// xmllint against the JUnit XSD, Python's junitparser, prove, Python's jsonschema, headless Chromium.
@Suite struct ReportTests {
    /// A secret from the environment, used in a header, the URL query, a JSON body and an assertion.
    static let secret = "s3cr3t-T0k3n-4f9e2b"

    /// The repository root (three levels above this file).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One finished `apitest run` with every report.
    struct Run {
        var directory: URL
        var result: ProcessResult
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        func text(_ name: String) throws -> String { try String(contentsOf: file(name), encoding: .utf8) }
    }

    /// A suite with passing, failing and erroring tests.
    ///
    /// Passing, failing (two ways), erroring and skipped tests, with a secret from the environment in several places.
    static func suite(baseURL: String, closedPort: Int) -> String {
        """
        name: Reports
        baseURL: \(baseURL)
        variables:
          key: "{{ env.APITEST_REPORT_SECRET }}"
        tests:
          - name: health passes
            request: {url: /health}
            expect:
              json:
                $.status: ok
          - name: "echo <mismatch> & ]]> fails"
            request:
              method: POST
              url: /echo/secret
              query: {key: "{{ key }}"}
              headers: {X-Api-Key: "{{ key }}", Authorization: "Bearer {{ key }}"}
              json: {key: "{{ key }}", note: "<script>alert(1)</script>"}
            expect:
              status: 201
              json:
                $.json.key: "not-{{ key }}"
          - name: two steps, the second fails
            steps:
              - request: {url: /json}
              - request: {url: /status/418}
                expect: {status: 200}
          - name: connection refused
            request: {url: "http://127.0.0.1:\(closedPort)/"}
          - name: skipped for now
            skip: waiting for the v2 endpoint
            request: {url: /health}

        """
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static var reportArguments: [String] {
        [
            "--report-junit", "junit.xml", "--report-tap", "report.tap", "--report-json", "report.json",
            "--report-html", "report.html",
        ]
    }

    /// Starts the demo API and runs the suite with every report (in `--verbose` so the console shows everything).
    func run(extraArguments: [String] = []) async throws -> Run {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = try Self.temporaryDirectory()
        let suite = directory.appendingPathComponent("reports.yaml")
        try Self.suite(baseURL: demo.baseURL, closedPort: try closedPort()).write(
            to: suite, atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            ["run", "reports.yaml", "--verbose", "--jobs", "1"] + Self.reportArguments + extraArguments,
            environment: ["APITEST_REPORT_SECRET": Self.secret], currentDirectory: directory)
        return Run(directory: directory, result: result)
    }

    // MARK: - JUnit XML

    /// The 1-based line of the suite where the test `name` is declared (`- name: <name>`).
    static func line(of name: String) -> Int {
        let lines = suite(baseURL: "http://x", closedPort: 1).split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains("- name: \(name)") } ?? -1) + 1
    }

    @Test func junitValidatesAgainstTheXSDAndJunitparserReadsIt() async throws {
        let run = try await run()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.exitCode == 1, "\(run.result.stdout)\(run.result.stderr)")

        // Each testcase has the file and line of its test: valid for junit-10.xsd with exactly those two attributes
        // added to `testcase`; with --no-junit-locations, valid for junit-10.xsd itself.
        let schema = Self.repository.deletingLastPathComponent().appendingPathComponent(
            "shared/testdata/junit/junit-10.xsd")
        let extended = try JUnitSchemas.withLocations(in: run.directory)
        let xmllint = try await runProcess(
            try TestBinaries.tool("xmllint"), ["--noout", "--schema", extended, run.file("junit.xml").path])
        #expect(xmllint.exitCode == 0, "\(xmllint.stderr)")
        #expect(xmllint.stderr.contains("junit.xml validates"))
        let junit = try String(contentsOf: run.file("junit.xml"), encoding: .utf8)
        #expect(
            junit.contains(
                "<testcase name=\"health passes\" classname=\"Reports\" time=\"")
                && junit.contains("file=\"reports.yaml\" line=\"\(Self.line(of: "health passes"))\">"), "\(junit)")
        let strictRun = try await self.run(extraArguments: ["--no-junit-locations"])
        defer { try? FileManager.default.removeItem(at: strictRun.directory) }
        let strict = try await runProcess(
            try TestBinaries.tool("xmllint"), ["--noout", "--schema", schema.path, strictRun.file("junit.xml").path])
        #expect(strict.exitCode == 0, "\(strict.stderr)")
        #expect(!(try String(contentsOf: strictRun.file("junit.xml"), encoding: .utf8)).contains(" line=\""))

        let script = """
            import sys
            from junitparser import JUnitXml
            xml = JUnitXml.fromfile(sys.argv[1])
            for suite in xml:
                print("suite", suite.name, suite.tests, suite.failures, suite.errors, suite.skipped)
                for case in suite:
                    kinds = ", ".join(
                        type(r).__name__ + "(" + (r.type or "") + "): " + (r.message or "") for r in case.result)
                    print("case", case.name, "|", case.classname, "|", kinds)
            """
        let parsed = try await runProcess(try TestBinaries.tool("python3"), ["-c", script, run.file("junit.xml").path])
        #expect(parsed.exitCode == 0, "\(parsed.stderr)")
        let lines = parsed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines.first == "suite Reports 5 2 1 1")
        #expect(lines.dropFirst().first == "case health passes | Reports | ")
        #expect(
            lines.dropFirst(2).first
                == "case echo <mismatch> & ]]> fails | Reports | "
                + "Failure(assertion): expected status 201, got 200 (and 1 more)"
        )
        #expect(
            lines.dropFirst(3).first
                == "case two steps, the second fails | Reports | Failure(assertion): expected status 200, got 418")
        #expect(
            lines.dropFirst(4).first?.hasPrefix(
                "case connection refused | Reports | Error(connectionRefused): connection refused") == true)
        #expect(lines.last == "case skipped for now | Reports | Skipped(): waiting for the v2 endpoint")
    }

    // MARK: - TAP

    @Test func proveReadsTheTAPReport() async throws {
        let run = try await run()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        // `prove -e cat FILE` runs `cat FILE` and parses its output as TAP.
        let prove = try await runProcess(
            try TestBinaries.tool("prove"), ["-e", "cat", "report.tap"], currentDirectory: run.directory)
        #expect(prove.exitCode == 1, "\(prove.stdout)\(prove.stderr)")
        #expect(prove.stdout.contains("report.tap (Wstat: 0 Tests: 5 Failed: 3)"), "\(prove.stdout)")
        #expect(prove.stdout.contains("Failed tests:  2-4"))
        #expect(prove.stdout.contains("Files=1, Tests=5,"))
        #expect(prove.stdout.contains("(less 1 skipped subtest: 1 okay)"), "\(prove.stdout)")
        #expect(!prove.stderr.contains("YAML"), "\(prove.stderr)")
        let tap = try run.text("report.tap")
        #expect(tap.hasPrefix("TAP version 13\n1..5\n"))
        #expect(tap.contains("ok 5 - Reports › skipped for now # SKIP waiting for the v2 endpoint"))
        #expect(
            tap.contains(
                "not ok 2 - Reports › echo <mismatch> & ]]> fails\n  ---\n"
                    + "  message: \"expected status 201, got 200\"\n"
            ))
    }

    @Test func tapVersion14HasASubtestPerStep() async throws {
        let run = try await run(extraArguments: ["--tap-version", "14"])
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let tap = try run.text("report.tap")
        #expect(tap.hasPrefix("TAP version 14\n1..5\n"))
        #expect(tap.contains("# Subtest: Reports › two steps, the second fails\n    1..2\n    ok 1 - step 1: GET "))
        #expect(tap.contains("    not ok 2 - step 2: GET "))
        let invalid = try await runProcess(try TestBinaries.url("apitest"), ["run", "x.yaml", "--tap-version", "15"])
        #expect(invalid.exitCode == 2)
        #expect(invalid.stderr.contains("--tap-version must be 13 or 14"))
    }

    // MARK: - JSON

    @Test func jsonReportValidatesAgainstItsSchema() async throws {
        let run = try await run()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let schema = Self.repository.appendingPathComponent("schemas/report.schema.json")
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[2]))
            jsonschema.Draft202012Validator.check_schema(schema)
            report = json.load(open(sys.argv[1]))
            jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
            tests = report["suites"][0]["tests"]
            print(report["version"], json.dumps(report["summary"], sort_keys=True))
            print([t["status"] for t in tests], [len(t["steps"]) for t in tests])
            """
        let checked = try await runProcess(
            try TestBinaries.tool("python3"), ["-c", script, run.file("report.json").path, schema.path])
        #expect(checked.exitCode == 0, "\(checked.stderr)")
        #expect(
            checked.stdout == """
                1 {"cancelled": 0, "errored": 1, "failed": 2, "notRun": 0, "passed": 1, "skipped": 1, "total": 5}
                ['passed', 'failed', 'failed', 'errored', 'skipped'] [1, 1, 2, 1, 0]

                """)
    }

    // MARK: - HTML

    @Test func chromiumLoadsTheHTMLReportWithEveryTestName() async throws {
        let run = try await run()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let url = run.file("report.html").absoluteString
        let dom = try await Self.chromiumDOM(url, profile: run.directory.appendingPathComponent("chromium"))
        for name in [
            "health passes", "echo &lt;mismatch&gt; &amp; ]]&gt; fails", "two steps, the second fails",
            "connection refused", "skipped for now",
        ] {
            #expect(dom.contains("<span class=\"name\">\(name)</span>"), "\(name) missing from the DOM")
        }
        #expect(!dom.contains("<script>alert(1)</script>"))
        // The filter buttons work from a file: the script picks up #status=failed and marks the button pressed.
        let filtered = try await Self.chromiumDOM(
            url + "#status=failed", profile: run.directory.appendingPathComponent("chromium"))
        #expect(filtered.contains("<body data-filter=\"failed\">"))
        #expect(filtered.contains("data-filter=\"failed\" aria-pressed=\"true\""))
    }

    /// The DOM of `url` after headless Chromium ran its scripts.
    static func chromiumDOM(_ url: String, profile: URL) async throws -> String {
        let result = try await runProcess(
            try TestBinaries.tool("chromium"),
            ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--dump-dom", url],
            timeout: .seconds(90))
        #expect(result.exitCode == 0, "\(result.stderr.suffix(2000))")
        return result.stdout
    }

    // MARK: - Secrets

    @Test func theSecretAppearsInNoReportAndNotOnTheConsole() async throws {
        let run = try await run()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        for name in ["junit.xml", "report.tap", "report.json", "report.html"] {
            let text = try run.text(name)
            #expect(!text.contains(Self.secret), "\(name) holds the secret")
            #expect(text.contains("•••••"), "\(name) shows no masked value")
        }
        #expect(!run.result.stdout.contains(Self.secret))
        #expect(!run.result.stderr.contains(Self.secret))
        #expect(run.result.stdout.contains("X-Api-Key: •••••"))
        // The echo endpoint sent the secret back in its body: the JSON report shows it masked.
        #expect(try run.text("report.json").contains("key=•••••"))
    }

    @Test func secretsThatNeedEscapingAreMaskedToo() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.suite(baseURL: demo.baseURL, closedPort: try closedPort())
            .write(to: directory.appendingPathComponent("reports.yaml"), atomically: true, encoding: .utf8)
        let secret = "pa ss\"w/rd"
        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["run", "reports.yaml", "--verbose"] + Self.reportArguments,
            environment: ["APITEST_REPORT_SECRET": secret], currentDirectory: directory)
        // The secret also travels percent-encoded in the URL (pa%20ss%22w%2Frd) and JSON-escaped in bodies and
        // assertion values (pa ss\"w/rd); the runner masks those forms too.
        var leaks: [String] = []
        for name in ["junit.xml", "report.tap", "report.json", "report.html"] {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            for form in ["pa%20ss%22w%2Frd", "pa ss\\\"w/rd", "pa ss&quot;w/rd"] where text.contains(form) {
                leaks.append("\(name): \(form)")
            }
        }
        if result.stdout.contains("pa%20ss%22w%2Frd") { leaks.append("console: pa%20ss%22w%2Frd") }
        #expect(leaks.isEmpty, "the secret leaks in encoded form: \(leaks.joined(separator: ", "))")
        #expect(!result.stdout.contains(secret))
    }

    // MARK: - Failures and Ctrl-C

    @Test func aReportThatCannotBeWrittenIsAUsageErrorBeforeTheRun() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "baseURL: \(demo.baseURL)\ntests:\n  - name: fine\n    request: {url: /health}\n"
            .write(to: directory.appendingPathComponent("ok.yaml"), atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            ["run", "ok.yaml", "--report-junit", "missing/junit.xml", "--report-json", "report.json"],
            currentDirectory: directory)
        #expect(result.exitCode == 2)
        #expect(
            result.stderr.contains(
                "--report-junit 'missing/junit.xml': the folder '\(directory.path)/missing' does not exist"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.json").path))
        let same = try await runProcess(
            try TestBinaries.url("apitest"), ["run", "ok.yaml", "--report-tap", "r", "--report-json", "./r"],
            currentDirectory: directory)
        #expect(same.exitCode == 2)
        #expect(same.stderr.contains("two reports cannot be written to the same file"))
    }

    @Test func ctrlCLeavesReportsOfWhatRanAndMarksTheRest() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--log"])
        defer { demo.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = """
            name: Slow
            baseURL: \(demo.baseURL)
            tests:
              - name: quick
                request: {url: /health}
              - name: slow
                request: {url: /delay/30000}
              - name: never started
                request: {url: /health}

            """
        try yaml.write(to: directory.appendingPathComponent("slow.yaml"), atomically: true, encoding: .utf8)
        let run = try InterruptibleRun(
            ["run", "slow.yaml", "--jobs", "1", "--timeout", "60s"] + Self.reportArguments, directory: directory)
        // Interrupt once the quick test has its answer (the demo logs a request when it has answered it) and the slow
        // one, next with --jobs 1, has its connection.
        let took = try await run.interrupt(when: {
            demo.standardError.contains("GET /health") && establishedConnections(toPort: demo.port) > 0
        })
        #expect(took != nil, "the slow test never started: \(demo.standardError)")
        #expect(await run.exitStatus() == 130)

        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(report["interrupted"] as? Bool == true)
        let suite = try #require((report["suites"] as? [[String: Any]])?.first)
        #expect(suite["notRun"] as? [String] == ["never started"])
        let tests = try #require(suite["tests"] as? [[String: Any]])
        #expect(tests.map { $0["status"] as? String } == ["passed", "cancelled"])

        let prove = try await runProcess(
            try TestBinaries.tool("prove"), ["-e", "cat", "report.tap"], currentDirectory: directory)
        #expect(prove.stdout.contains("report.tap (Wstat: 0 Tests: 3 Failed: 1)"), "\(prove.stdout)")
        #expect(prove.stdout.contains("Failed test:  2"))
        let tap = try String(contentsOf: directory.appendingPathComponent("report.tap"), encoding: .utf8)
        #expect(tap.contains("not ok 2 - Slow › slow # interrupted\n"))
        #expect(tap.contains("ok 3 - Slow › never started # SKIP not run: the run was interrupted\n"))

        let junit = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<error message=\"interrupted\" type=\"cancelled\">"))
        #expect(junit.contains("<skipped message=\"not run: the run was interrupted\"/>"))
        let xmllint = try await runProcess(
            try TestBinaries.tool("xmllint"),
            ["--noout", "--schema", try JUnitSchemas.withLocations(in: directory), "junit.xml"],
            currentDirectory: directory)
        #expect(xmllint.exitCode == 0, "\(xmllint.stderr)")
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("data-status=\"notRun\""))
        #expect(html.contains("<span class=\"name\">never started</span>"))
    }
}

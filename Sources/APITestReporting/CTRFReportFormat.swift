package import APITestResults
import APITestSupport
import Foundation

/// The Common Test Report Format (CTRF, `specVersion` 1.0.0, https://ctrf.io), which GitHub Actions and
/// dashboards read: one JSON document with the run's summary and a test per apitest test.
///
/// ```json
/// {"reportFormat": "CTRF", "specVersion": "1.0.0", "generatedBy": "apitest", "timestamp": "…",
///  "results": {"tool": {"name": "apitest", "version": "…"},
///    "summary": {"tests": 2, "passed": 1, "failed": 1, "skipped": 0, "pending": 0, "other": 0, "flaky": 1, …},
///    "tests": [{"name": "get job", "status": "passed", "duration": 12, "suite": ["Jobs"],
///               "filePath": "suites/jobs.yaml", "line": 7, "flaky": true, "retries": 1,
///               "retryAttempts": [{"attempt": 1, "status": "failed", "message": "…", "trace": "…"}, …]}]}}
/// ```
///
/// Mapping: `passed` and a flaky test (`flaky: true`) are `passed`; `failed` and `errored` are `failed` (an errored
/// test has `rawStatus: errored`); `skipped`, and a planned test the interrupted run never started
/// (`rawStatus: notRun`), are `skipped`; `cancelled` is `other`. Each test has its suite (`suite`), file and line,
/// its message (the first failure or error) and `trace` (every failure and error with location, expected, actual,
/// request and curl command), its steps' request lines as `stdout`, and, when it was run again (`--retries`),
/// `retries` and every attempt in `retryAttempts`. apitest's own facts (the suite file, the test as the JSON report
/// writes it, the run's identity) are under `extra.apitest`, so that `apitest merge` merges CTRF files as it merges
/// JSON reports (`CTRFDocument+Reading.swift`).
package struct CTRFReportFormat: ReportFormat {
    package var displayName: String { "CTRF" }
    /// A passing step shows its request line, status and timings in `stdout`.
    package var resultDetail: ResultDetail { .requestLines }

    /// apitest's version, for `results.tool.version`.
    var toolVersion: String?
    /// The run's place in a sharded set, as the JSON report says it (`extra.apitest.run`), for `apitest merge`.
    var run: JSONReportDocument.Run?

    /// The format, naming apitest `toolVersion` as the tool.
    package init(toolVersion: String? = nil) {
        self.toolVersion = toolVersion
    }

    /// The format with the run identity of `json` (the JSON report's of the same run).
    package init(toolVersion: String?, identity json: JSONReportFormat) {
        self.toolVersion = toolVersion
        self.run = json.run
    }

    package func render(_ record: RunRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(CTRFDocument(record, toolVersion: toolVersion, run: run))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            // Only non-finite numbers can fail to encode, and there are none.
            return "{\"reportFormat\": \"CTRF\", \"specVersion\": \"1.0.0\"}\n"
        }
    }
}

// MARK: - The document

/// A CTRF document's shape, as apitest writes it (`CTRFReportFormat`) and reads it back (`apitest merge`).
struct CTRFDocument: Codable {
    var reportFormat = "CTRF"
    var specVersion = "1.0.0"
    var reportId: String
    var timestamp: String
    var generatedBy = "apitest"
    var results: Results

    struct Results: Codable {
        var tool: Tool
        var summary: Summary
        var tests: [Test]
        var extra: Extra?
    }

    struct Tool: Codable {
        var name = "apitest"
        var version: String?
    }

    struct Summary: Codable {
        var tests: Int
        var passed: Int
        var failed: Int
        var skipped: Int
        var pending: Int
        var other: Int
        var flaky: Int
        var suites: Int
        /// Milliseconds since the epoch.
        var start: Int64
        var stop: Int64
        var duration: Int64
    }

    struct Test: Codable {
        var name: String
        var status: String
        /// Milliseconds.
        var duration: Int64
        var suite: [String]
        var filePath: String?
        var line: Int?
        var rawStatus: String
        var message: String?
        var trace: String?
        var stdout: [String]?
        var retries: Int?
        var flaky: Bool?
        var retryAttempts: [Attempt]?
        var tags: [String]?
        var extra: TestExtra?
    }

    struct Attempt: Codable {
        var attempt: Int
        var status: String
        var duration: Int64
        var message: String?
        var trace: String?
        var line: Int?
        var stdout: [String]?
    }

    /// `results.extra`: apitest's facts of the run.
    struct Extra: Codable {
        var apitest: RunFacts
    }

    /// The run's identity and state, for `apitest merge`.
    struct RunFacts: Codable {
        var run: JSONReportDocument.Run?
        var hostname: String
        var interrupted: Bool
    }

    /// `tests[].extra`: apitest's facts of a test.
    struct TestExtra: Codable {
        var apitest: TestFacts
    }

    struct TestFacts: Codable {
        /// The suite file the test belongs to (its `filePath` may be a file the suite includes).
        var suiteFile: String
        var column: Int?
        /// apitest's status: `passed`, `failed`, `errored`, `skipped`, `cancelled`, `flaky` or `notRun`.
        var status: String
        var reason: String?
        /// The test as the JSON report writes it (steps, requests, earlier attempts): what `apitest merge` reads
        /// back from a CTRF file; absent for a test that never started.
        var report: JSONReportDocument.Test?
    }
}

// MARK: - Building

extension CTRFDocument {
    init(_ record: RunRecord, toolVersion: String?, run: JSONReportDocument.Run?) {
        var tests: [Test] = []
        for suite in record.suites {
            for entry in suite.entries {
                switch entry {
                case .result(let result): tests.append(Test(result))
                case .notRun(let name): tests.append(Test(notRun: name, suite: suite))
                }
            }
        }
        let start = Int64((record.startedAt.timeIntervalSince1970 * 1000).rounded())
        let duration = Int64(ReportText.milliseconds(record.summary.duration).rounded())
        let summary = Summary(
            tests: tests.count, passed: tests.count { $0.status == "passed" },
            failed: tests.count { $0.status == "failed" }, skipped: tests.count { $0.status == "skipped" },
            pending: 0, other: tests.count { $0.status == "other" }, flaky: tests.count { $0.flaky == true },
            suites: record.suites.count, start: start, stop: start + duration, duration: duration)
        self.init(
            reportId: UUID().uuidString.lowercased(), timestamp: ReportText.iso8601(record.startedAt),
            results: Results(
                tool: Tool(version: toolVersion), summary: summary, tests: tests,
                extra: Extra(
                    apitest: RunFacts(
                        run: run, hostname: record.hostname, interrupted: record.summary.interrupted))))
    }
}

extension CTRFDocument.Test {
    /// A finished test.
    init(_ result: TestResult) {
        let last = TestAttempt(result)
        let status = Self.status(of: last.status)
        let rawStatus = result.isFlaky ? "flaky" : result.status.rawValue
        let (message, trace) = Self.problem(of: last)
        var attempts: [CTRFDocument.Attempt]?
        if !result.earlierAttempts.isEmpty {
            attempts = result.allAttempts.enumerated().map { index, attempt in
                let (message, trace) = Self.problem(of: attempt)
                return CTRFDocument.Attempt(
                    attempt: index + 1, status: Self.status(of: attempt.status),
                    duration: Int64(ReportText.milliseconds(attempt.duration).rounded()), message: message,
                    trace: trace, line: Self.problemLine(of: attempt), stdout: Self.lines(attempt.steps))
            }
        }
        self.init(
            name: result.name, status: status, duration: Int64(ReportText.milliseconds(result.duration).rounded()),
            suite: [result.suiteName], filePath: result.location.file.isEmpty ? nil : result.location.file,
            line: result.location.line > 0 ? result.location.line : nil, rawStatus: rawStatus,
            message: message ?? (result.status == .skipped || result.status == .cancelled ? result.reason : nil),
            trace: trace, stdout: Self.lines(result.steps),
            retries: result.earlierAttempts.isEmpty ? nil : result.earlierAttempts.count,
            flaky: result.isFlaky ? true : nil, retryAttempts: attempts, tags: nil,
            extra: CTRFDocument.TestExtra(
                apitest: CTRFDocument.TestFacts(
                    suiteFile: result.suiteFile, column: result.location.column, status: rawStatus,
                    reason: result.reason, report: JSONReportDocument.Test(result))))
    }

    /// A planned test the interrupted run never started.
    init(notRun name: String, suite: RunRecord.Suite) {
        self.init(
            name: name, status: "skipped", duration: 0, suite: [suite.name], filePath: suite.file, line: nil,
            rawStatus: "notRun", message: "not run: the run was interrupted", trace: nil, stdout: nil, retries: nil,
            flaky: nil, retryAttempts: nil, tags: nil,
            extra: CTRFDocument.TestExtra(
                apitest: CTRFDocument.TestFacts(
                    suiteFile: suite.file, column: nil, status: "notRun", reason: nil, report: nil)))
    }

    /// CTRF's status of an apitest status: an error fails the test; a test cut off by Ctrl-C is `other`.
    static func status(of status: TestStatus) -> String {
        switch status {
        case .passed: "passed"
        case .failed, .errored: "failed"
        case .skipped: "skipped"
        case .cancelled: "other"
        }
    }

    /// The message (the first failure's, or the first error's, with how many more there are) and the trace
    /// (every failure and error) of an attempt that did not pass; `nil`s for one that did.
    static func problem(of attempt: TestAttempt) -> (String?, String?) {
        let failures = attempt.failures
        let errors = attempt.steps.compactMap(\.error)
        guard !failures.isEmpty || !errors.isEmpty else { return (nil, nil) }
        var message: String
        if attempt.status == .errored || failures.isEmpty, let error = attempt.error {
            message = error.message
        } else {
            message = failures.first?.message ?? "failed"
        }
        let more = failures.count + errors.count - 1
        if more > 0 { message += " (and \(more) more)" }
        let text =
            attempt.status == .failed
            ? StepText.failures(attempt.steps) + StepText.errors(attempt.steps)
            : StepText.errors(attempt.steps) + StepText.failures(attempt.steps)
        return (message, text)
    }

    /// The line of an attempt's first failure or error.
    static func problemLine(of attempt: TestAttempt) -> Int? {
        for step in attempt.steps {
            if let failure = step.failures.first { return failure.location.line }
            if let error = step.error { return (error.location ?? step.location).line }
        }
        return nil
    }

    /// Each step's request line, status and timings, a line each; `nil` without steps.
    static func lines(_ steps: [StepResult]) -> [String]? {
        guard !steps.isEmpty else { return nil }
        return StepText.requests(nil, steps, attempts: nil).split(separator: "\n").map(String.init)
    }
}

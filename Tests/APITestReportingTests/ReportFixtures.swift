import APITestReporting
import APITestResults
import APITestSupport
import Foundation

/// Results built by hand, one of each status, and records made of them, for the reporter tests.
enum ReportFixtures {
    static let file = "suites/users.yaml"
    static let suite = "Users API"
    static let startedAt = Date(timeIntervalSince1970: 1_746_100_800) // 2025-05-01T12:00:00Z

    static func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    static let timings = Exchange.Timings(
        nameLookup: .microseconds(100), connect: .microseconds(400), tlsHandshake: .zero,
        firstByte: .milliseconds(11), total: .milliseconds(12))

    static func exchange(_ method: String, _ path: String, status: Int?, body: String? = nil) -> Exchange {
        Exchange(
            method: method, url: "http://127.0.0.1:8080/api/\(path)",
            requestHeaders: [
                .init(name: "Accept", value: "application/json"),
                .init(name: "Authorization", value: "•••••"),
            ],
            requestBody: method == "POST" ? "{\"name\":\"carol\"}" : nil, requestBodySize: method == "POST" ? 16 : 0,
            statusCode: status, httpVersion: status == nil ? nil : "HTTP/1.1",
            responseHeaders: status == nil ? [] : [.init(name: "Content-Type", value: "application/json")],
            responseBody: body, responseBodySize: body?.utf8.count ?? 0, timings: status == nil ? nil : timings)
    }

    static func result(
        _ name: String, _ status: TestStatus, line: Int, steps: [StepResult] = [], reason: String? = nil,
        duration: Duration = .milliseconds(12)
    ) -> TestResult {
        TestResult(
            suiteName: suite, suiteFile: file, name: name, location: location(line, 5), status: status,
            duration: duration, steps: steps, reason: reason)
    }

    static var passed: TestResult {
        result(
            "list users", .passed, line: 10,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(11, 7),
                        exchange: exchange("GET", "users", status: 200, body: "{\"count\":2}"),
                        captured: ["count"]))
            ])
    }

    static var failed: TestResult {
        let failures = [
            AssertionFailure(
                location: location(23, 17), subject: "status", message: "expected status 201, got 400", expected: "201",
                actual: "400"),
            AssertionFailure(
                location: location(26, 9), subject: "$.name", message: "$.name: expected \"carol\", got nothing",
                expected: "\"carol\"", actual: "nothing"),
        ]
        return result(
            "create a user", .failed, line: 20,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(21, 7),
                        exchange: exchange("POST", "users", status: 400, body: "{\"error\":\"name taken\"}"),
                        failures: failures))
            ], duration: .milliseconds(8))
    }

    static var errored: TestResult {
        result(
            "connection refused", .errored, line: 30,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(31, 7), exchange: exchange("GET", "down", status: nil),
                        error: TestError(
                            kind: .transfer(.connectionRefused),
                            message: "connection refused: Couldn't connect to server",
                            location: location(32, 14))))
            ])
    }

    static var skipped: TestResult {
        result("export", .skipped, line: 40, reason: "not implemented yet", duration: .zero)
    }

    static var cancelled: TestResult {
        result(
            "slow report", .cancelled, line: 50,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(51, 7), exchange: exchange("GET", "slow", status: nil),
                        error: TestError(kind: .cancelled, message: "interrupted", location: location(52, 14))))
            ], reason: "interrupted", duration: .milliseconds(900))
    }

    /// Text that breaks naive writers: control characters, a CDATA end, invalid UTF-8 decoded to U+FFFD, a lone
    /// surrogate's bytes (CESU-8), markup, quotes, `#`, line breaks and a noncharacter.
    static var weirdText: String {
        let invalidUTF8 = String(decoding: [0x61, 0xFF, 0xFE, 0x62] as [UInt8], as: UTF8.self)
        let loneSurrogate = String(decoding: [0xED, 0xA0, 0x80] as [UInt8], as: UTF8.self)
        return "bell\u{07} esc\u{1B}[31m nul\u{0} ]]> \(invalidUTF8) \(loneSurrogate) <script>alert('x')</script> "
            + "\"quoted\" & #hash\nsecond line\r\tTab \u{FFFF} \u{85}end"
    }

    static var weird: TestResult {
        let text = weirdText
        return TestResult(
            suiteName: "Weird \(text)", suiteFile: "suites/weird.yaml", name: "name \(text)",
            location: SourceLocation(file: "suites/weird.yaml", line: 3, column: 5), status: .failed,
            duration: .milliseconds(1),
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: SourceLocation(file: "suites/weird.yaml", line: 4, column: 7),
                        exchange: Exchange(
                            method: "GET", url: "http://127.0.0.1/\(text)",
                            requestHeaders: [.init(name: "X-Weird", value: text)],
                            statusCode: 200, httpVersion: "HTTP/1.1",
                            responseHeaders: [.init(name: "X-Weird", value: text)],
                            responseBody: text, responseBodySize: text.utf8.count, timings: timings),
                        failures: [
                            AssertionFailure(
                                location: SourceLocation(file: "suites/weird.yaml", line: 6, column: 9),
                                subject: "$.text",
                                message: "message \(text)", expected: "expected \(text)", actual: "actual \(text)")
                        ]))
            ])
    }

    /// The plan of the five standard results plus one test that never started.
    static var plan: RunPlan {
        RunPlan(
            suites: [
                .init(
                    name: suite, file: file,
                    tests: [
                        "list users", "create a user", "connection refused", "export", "slow report", "never started",
                    ])
            ], jobs: 4)
    }

    /// One result of each status, delivered out of order, and `never started` left out (the run was interrupted).
    static var interruptedRecord: RunRecord {
        let results = [cancelled, failed, passed, skipped, errored]
        var summary = RunSummary(duration: .milliseconds(950), interrupted: true)
        for result in results { summary.record(result.status) }
        return RunRecord(plan: plan, results: results, summary: summary, startedAt: startedAt, hostname: "ci-7")
    }

    static var weirdRecord: RunRecord {
        let result = weird
        let plan = RunPlan(
            suites: [.init(name: result.suiteName, file: result.suiteFile, tests: [result.name])], jobs: 1)
        var summary = RunSummary(duration: .milliseconds(1))
        summary.record(.failed)
        return RunRecord(plan: plan, results: [result], summary: summary, startedAt: startedAt, hostname: "host<&>")
    }

    /// A teardown that ran on after a failed step: one failure, then an error in a later step.
    static var mixedRecord: RunRecord {
        let result = result(
            "teardown", .failed, line: 60,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(61, 7), exchange: exchange("DELETE", "users/1", status: 500),
                        failures: [
                            AssertionFailure(
                                location: location(62, 17), subject: "status", message: "expected status 204, got 500",
                                expected: "204", actual: "500")
                        ])),
                StepResult(
                    reported: .init(
                        index: 1, location: location(63, 7), exchange: nil,
                        error: TestError(
                            kind: .template, message: "undefined variable 'token' (the suite's setup did not finish)",
                            location: location(63, 40)))),
            ])
        let plan = RunPlan(suites: [.init(name: suite, file: file, tests: ["teardown"])], jobs: 1)
        var summary = RunSummary(duration: .milliseconds(3))
        summary.record(.failed)
        return RunRecord(plan: plan, results: [result], summary: summary, startedAt: startedAt, hostname: "ci-7")
    }

    /// A temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-reporting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

package import APITestResults
package import Foundation

/// Everything a report file shows about a finished (or interrupted) run: the results grouped by suite in plan
/// order, the tests that never started, the summary, and when and where the run happened.
package struct RunRecord: Sendable {
    /// One suite file: its finished tests in file order, and the planned tests that never started.
    package struct Suite: Sendable, Hashable {
        package var name: String
        package var file: String
        /// Finished tests (including cancelled ones), in the order the suite file lists them.
        package private(set) var results: [TestResult]
        /// Names of the planned tests that never started (the run was interrupted first).
        package private(set) var notRun: [String]
        /// The finished tests and those that never started together, in plan order: a test not run before the
        /// suite's `teardown`, as the suite file lists them.
        package private(set) var entries: [Entry]

        /// A finished test, or a planned one that never started.
        package enum Entry: Sendable, Hashable {
            case result(TestResult)
            case notRun(String)
        }

        /// A suite whose entries are `results`, then `notRun`.
        package init(name: String, file: String, results: [TestResult] = [], notRun: [String] = []) {
            self.name = name
            self.file = file
            self.results = results
            self.notRun = notRun
            self.entries = results.map(Entry.result) + notRun.map(Entry.notRun)
        }

        /// Adds a finished test after the entries so far.
        mutating func append(_ result: TestResult) {
            results.append(result)
            entries.append(.result(result))
        }

        /// Adds a test that never started after the entries so far.
        mutating func appendNotRun(_ name: String) {
            notRun.append(name)
            entries.append(.notRun(name))
        }

        /// How many finished tests ended with `status`, flaky tests not counted as `passed`.
        package func count(_ status: TestStatus) -> Int { results.count { $0.status == status && !$0.isFlaky } }

        /// How many finished tests were flaky: did not pass, then passed when run again.
        package var flakyCount: Int { results.count(where: \.isFlaky) }

        /// The sum of the test durations (tests run concurrently, so this can exceed the wall time).
        package var testTime: Duration { results.reduce(.zero) { $0 + $1.duration } }
    }

    package var suites: [Suite]
    package var summary: RunSummary
    /// When the run started (wall clock).
    package var startedAt: Date
    /// The machine the run happened on.
    package var hostname: String

    package init(suites: [Suite], summary: RunSummary, startedAt: Date, hostname: String) {
        self.suites = suites
        self.summary = summary
        self.startedAt = startedAt
        self.hostname = hostname
    }

    /// Planned tests that never started, over all suites.
    package var notRunCount: Int { suites.reduce(0) { $0 + $1.notRun.count } }

    /// Every finished test, suite by suite, in file order.
    package var results: [TestResult] { suites.flatMap(\.results) }

    // MARK: - Building

    /// Groups `results` (in any order) by the suites of `plan`, in plan order; planned tests without a result are
    /// `notRun`. Results the plan does not name are kept, in suites of their own after the planned ones.
    package init(plan: RunPlan?, results: [TestResult], summary: RunSummary?, startedAt: Date, hostname: String) {
        var pending: [String: [TestResult]] = [:]
        var order: [String] = []
        for result in results {
            let key = Self.key(file: result.suiteFile, suite: result.suiteName, test: result.name)
            if pending[key] == nil { order.append(key) }
            pending[key, default: []].append(result)
        }
        var suites: [Suite] = []
        for entry in plan?.suites ?? [] {
            var suite = Suite(name: entry.name, file: entry.file)
            for test in entry.tests {
                let key = Self.key(file: entry.file, suite: entry.name, test: test)
                if var queue = pending[key], !queue.isEmpty {
                    suite.append(queue.removeFirst())
                    pending[key] = queue
                } else {
                    suite.appendNotRun(test)
                }
            }
            suites.append(suite)
        }
        for key in order {
            for result in pending[key] ?? [] {
                if let index = suites.lastIndex(where: {
                    $0.file == result.suiteFile && $0.name == result.suiteName
                }) {
                    suites[index].append(result)
                } else {
                    suites.append(Suite(name: result.suiteName, file: result.suiteFile, results: [result]))
                }
            }
        }
        var counted = RunSummary()
        for result in results { counted.record(result) }
        self.init(suites: suites, summary: summary ?? counted, startedAt: startedAt, hostname: hostname)
    }

    private static func key(file: String, suite: String, test: String) -> String {
        "\(file)\u{0}\(suite)\u{0}\(test)"
    }

    /// This machine's host name, as JUnit's `hostname` attribute and the other reports show it.
    package static var currentHostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}

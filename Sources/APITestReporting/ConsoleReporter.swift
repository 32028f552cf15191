package import APITestResults
package import APITestSupport
import Foundation
import Synchronization

/// Reports a run on the terminal: a line per test, the details of each failure, a summary, and on a terminal a
/// live progress line.
///
/// ```
/// ✔ Users API › list admins (12 ms)
/// ✘ Users API › create a user (8 ms)
///     POST http://127.0.0.1:8080/api/users → 400
///     examples/users.yaml:23:9: expected status 201, got 400
///     reproduce: curl http://127.0.0.1:8080/api/users -X POST ...
/// 2 tests: 1 passed, 1 failed (0.1 s)
/// ```
package final class ConsoleReporter: Reporter {
    /// How much the console says.
    package enum Verbosity: Sendable {
        /// Failures and the summary only.
        case quiet
        /// A line per test, failure details, the summary.
        case normal
        /// Also every request and response with headers and (truncated) bodies.
        case verbose
    }

    private struct State {
        var plan: RunPlan?
        var finished = 0
        var running = 0
        /// The finished tests by status, for the live line.
        var counts = RunSummary()
        var progressShown = false
        var lastProgress = ContinuousClock.now - .seconds(1)
        var unsuccessful: [TestResult] = []
        /// The upload shown in the progress line: test, bytes sent, body length, when it was first seen.
        var upload: (test: String, sent: Int64, total: Int64, started: ContinuousClock.Instant)?
    }

    private let output: TextOutput
    private let progressOutput: TextOutput?
    /// `progressOutput != nil`, kept apart: testing the optional existential copied and destroyed it (twice a test).
    private let showsProgress: Bool
    let style: ANSIStyle
    let verbosity: Verbosity
    private let state = Mutex(State())
    /// Longest body text printed in verbose mode.
    private let bodyLimit: Int
    /// The mark of a passing test (`mark(.passed)`), as bytes.
    private let passedMark: [UInt8]
    /// The bytes that start and end dimmed text.
    private let dim: (start: [UInt8], end: [UInt8])

    /// - Parameters:
    ///   - output: where test lines and the summary go (standard output).
    ///   - progress: where the live progress line goes (standard error), used only when it is a terminal.
    ///   - bodyLimit: the most characters of a body printed in verbose mode.
    package init(
        output: TextOutput, progress: TextOutput?, colored: Bool, verbosity: Verbosity = .normal, bodyLimit: Int = 2_000
    ) {
        self.bodyLimit = bodyLimit
        self.output = output
        self.progressOutput = progress?.isTerminal == true ? progress : nil
        self.showsProgress = progress?.isTerminal == true
        self.style = ANSIStyle(enabled: colored)
        self.verbosity = verbosity
        let style = ANSIStyle(enabled: colored)
        passedMark = Array(style.green("✔").utf8)
        dim =
            colored ? (Array("\u{1B}[\(ANSIStyle.Code.dim.rawValue)m".utf8), Array("\u{1B}[0m".utf8)) : ([], [])
    }

    /// Verbose output shows every exchange; otherwise a passing test is one line, and a failure's details come
    /// with its step.
    package var resultDetail: ResultDetail { verbosity == .verbose ? .everyStep : .failures }

    package func handle(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            state.withLock { $0.plan = plan }
        case .testStarted:
            let show = state.withLock { state -> Bool in
                state.running += 1
                return shouldRefreshProgress(&state)
            }
            if show { drawProgress() }
        case .testFinished(let result):
            state.withLock { state in
                state.running -= 1
                state.finished += 1
                if let upload = state.upload, upload.test == "\(result.suiteName) › \(result.name)" {
                    state.upload = nil
                }
                state.counts.record(result)
                if result.status == .failed || result.status == .errored || result.isFlaky {
                    state.unsuccessful.append(result)
                }
            }
            clearProgress()
            write(result)
            if state.withLock({ shouldRefreshProgress(&$0) }) { drawProgress() }
        case .uploadProgress(let suiteName, let testName, let sent, let total):
            let show = state.withLock { state -> Bool in
                let name = "\(suiteName) › \(testName)"
                let started = state.upload?.test == name ? state.upload?.started ?? .now : .now
                state.upload = sent >= total ? nil : (name, sent, total, started)
                return shouldRefreshProgress(&state)
            }
            if show { drawProgress() }
        case .runFinished(let summary):
            clearProgress()
            writeSummary(summary)
            output.flush()
        }
    }

    // MARK: - Tests

    private func write(_ result: TestResult) {
        let failedOrErrored = result.status == .failed || result.status == .errored
        if verbosity == .quiet && !failedOrErrored && !result.isFlaky { return }
        // One byte buffer for the test's text (a line per test): the suite's and the test's names are escaped apart,
        // as the separator between them needs nothing.
        var text = LineBuffer(capacity: 96 + result.suiteName.utf8.count + result.name.utf8.count)
        if result.status == .passed && !result.isFlaky {
            text.append(passedMark)
        } else {
            text.append(mark(result))
        }
        text.append(byte: UInt8(ascii: " "))
        text.appendTerminalLine(result.suiteName)
        text.append(Self.nameSeparator)
        text.appendTerminalLine(result.name)
        text.append(byte: UInt8(ascii: " "))
        text.append(dim.start)
        text.append(byte: UInt8(ascii: "("))
        text.append(duration: result.duration)
        text.append(ReportText.attemptsNote(result))
        if !result.earlierAttempts.isEmpty { text.append(runsNote(result)) }
        text.append(byte: UInt8(ascii: ")"))
        text.append(dim.end)
        if let reason = result.reason, result.status == .skipped || result.status == .cancelled {
            text.append(style.dim(" - \(ReportText.terminalLine(reason))"))
        }
        text.append(byte: UInt8(ascii: "\n"))
        if verbosity == .verbose {
            for step in result.steps { text.append(exchangeText(step)) }
        }
        // Every earlier run of a test run again, then the last run's failure.
        if !result.earlierAttempts.isEmpty { text.append(earlierAttemptsText(result)) }
        if failedOrErrored { text.append(details(result.steps)) }
        if verbosity != .quiet, result.steps.contains(where: { !$0.warnings.isEmpty }) {
            text.append(warningLines(result))
        }
        output.write(utf8: text.bytes)
    }

    /// What stands between a test's suite and its name.
    private static let nameSeparator = Array(" › ".utf8)

    /// The mark of a finished test: its status's, or the flaky mark.
    func mark(_ result: TestResult) -> String {
        result.isFlaky ? style.yellow("~") : mark(result.status)
    }

    func mark(_ status: TestStatus) -> String {
        switch status {
        case .passed: return style.green("✔")
        case .failed: return style.red("✘")
        case .errored: return style.red("!")
        case .skipped: return style.yellow("-")
        case .cancelled: return style.yellow("⊘")
        }
    }

    /// The failure block: the failing step's request, then every failed assertion or the error.
    func details(_ steps: [StepResult]) -> String {
        var text = ""
        for step in steps where !step.failures.isEmpty || step.error != nil {
            if let label = step.label, verbosity != .verbose {
                text += style.dim("    \(ReportText.terminalLine(label))") + "\n"
            }
            if let exchange = step.exchange, verbosity != .verbose {
                var line = "    \(ReportText.terminalLine(exchange.requestLine))"
                if let status = exchange.statusCode { line += " → \(status)" }
                text += style.dim(line) + "\n"
            }
            for failure in step.failures {
                // A message is one line: a line break in it (a JSON key from the server, in a path) is shown as
                // `\n`, so that no server value can start a line of its own (a forged pass or summary line).
                text +=
                    "    \(style.cyan(ReportText.terminalLine(failure.location.description))): \(ReportText.terminalLine(failure.message))\n"
                // The message already reads "expected X, got Y"; repeat them apart only when they are long.
                if let expected = failure.expected, let actual = failure.actual,
                    failure.message.count > 120 || expected.contains("\n") || actual.contains("\n")
                {
                    text += "        expected: \(style.green(indentContinuation(ReportText.plain(expected))))\n"
                    text += "        actual:   \(style.red(indentContinuation(ReportText.plain(actual))))\n"
                }
            }
            if let error = step.error {
                let location = ReportText.terminalLine((error.location ?? step.location).description)
                text += "    \(style.cyan(location)): \(style.red(ReportText.terminalLine(error.message)))\n"
            }
            if let command = step.reproduce {
                text += "    " + style.dim("reproduce: \(ReportText.terminalLine(command.line))") + "\n"
                // What the command needs to run as printed (which variable to set for a secret), as in JUnit.
                for note in command.notes {
                    text += "    " + style.dim("note: \(ReportText.terminalLine(note))") + "\n"
                }
            }
        }
        return text
    }

    /// A line per warning of the test's steps (a request that breaks its OpenAPI contract, say).
    func warningLines(_ result: TestResult) -> String {
        var text = ""
        for step in result.steps {
            for warning in step.warnings {
                text +=
                    "    \(style.yellow("warning:")) \(style.cyan(ReportText.terminalLine(warning.location.description))): "
                    + "\(ReportText.plain(warning.message))\n"
            }
        }
        return text
    }

    private func indentContinuation(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\n                  ")
    }

    private func exchangeText(_ step: StepResult) -> String {
        if let skipped = step.skipped {
            return style.dim("    - " + ReportText.terminalLine("\(step.displayName) skipped: \(skipped)")) + "\n"
        }
        let tokenExchanges = step.tokenExchanges ?? []
        guard step.exchange != nil || !tokenExchanges.isEmpty else { return "" }
        var text = ""
        if let label = step.label { text += "    " + style.bold(ReportText.terminalLine(label)) + "\n" }
        // The OAuth2 token requests the step sent for its token come first, as they were sent first.
        for exchange in tokenExchanges {
            text += style.dim("    (OAuth2 token request)") + "\n" + lines(of: exchange)
        }
        if let exchange = step.exchange { text += lines(of: exchange) }
        return text
    }

    /// The request and response of `exchange`, `>` and `<` lines.
    private func lines(of exchange: Exchange) -> String {
        // Everything here may come from the server or from values it sent: every header line is escaped whole,
        // bodies keep their line breaks and tabs only, so nothing can set the title, move the cursor or overwrite
        // a line.
        var text = "    " + style.bold("> \(ReportText.terminalLine(exchange.requestLine))") + "\n"
        // The headers that went on the wire (libcurl's own included) when they were recorded.
        for header in exchange.sentRequestHeaders ?? exchange.requestHeaders {
            text += style.dim("    > " + ReportText.terminalLine("\(header.name): \(header.value)")) + "\n"
        }
        if let body = exchange.requestBody, !body.isEmpty { text += indentBody(body, prefix: "    > ") }
        if let status = exchange.statusCode {
            let version = ReportText.terminalLine(exchange.httpVersion ?? "HTTP")
            text += "    " + style.bold("< \(version) \(status)") + "\n"
            for header in exchange.responseHeaders {
                text += style.dim("    < " + ReportText.terminalLine("\(header.name): \(header.value)")) + "\n"
            }
            if let body = exchange.responseBody, !body.isEmpty { text += indentBody(body, prefix: "    < ") }
        }
        return text
    }

    private func indentBody(_ body: String, prefix: String) -> String {
        var shown = body
        var note = ""
        if shown.count > bodyLimit {
            shown = String(shown.prefix(bodyLimit))
            note = " … (\(body.utf8.count) bytes in all)"
        }
        return ReportText.plain(shown).split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }
            .joined(separator: "\n") + note + "\n"
    }

    // MARK: - Summary

    private func writeSummary(_ summary: RunSummary) {
        var text = ""
        let unsuccessful = state.withLock { $0.unsuccessful }
        if !unsuccessful.isEmpty && summary.total > 10 {
            text += "\nNot passed:\n"
            for result in unsuccessful {
                let name = ReportText.terminalLine("\(result.suiteName) › \(result.name)")
                text += "  \(mark(result)) \(name) \(style.dim(ReportText.terminalLine(result.location.description)))\n"
            }
        }
        let parts =
            [style.green("\(summary.passed) \(TestStatus.passed.rawValue)")]
            + (summary.flaky > 0 ? [style.yellow("\(summary.flaky) flaky")] : [])
            + countParts(summary, statuses: [.failed, .errored, .skipped, .cancelled])
        let tests = summary.total == 1 ? "1 test" : "\(summary.total) tests"
        text +=
            "\n\(style.bold(tests)): \(parts.joined(separator: ", ")) (\(DurationFormatter.format(summary.duration)))"
        if summary.interrupted { text += style.yellow(" - interrupted") }
        if let coverage = summary.coverage { text += "\n" + coverageText(coverage) }
        if let coverage = summary.grpcCoverage { text += "\n" + grpcCoverageText(coverage) }
        output.write(text + "\n")
    }

    /// `1 failed`, `2 errored`, ... for each of `statuses` that occurred, in that order, coloured by status. The
    /// word is the status's own name, the one the reports use: the live line and the summary give a test the same
    /// verdict.
    private func countParts(_ counts: RunSummary, statuses: [TestStatus]) -> [String] {
        statuses.compactMap { status in
            let count: Int
            switch status {
            case .passed: count = counts.passed
            case .failed: count = counts.failed
            case .errored: count = counts.errored
            case .skipped: count = counts.skipped
            case .cancelled: count = counts.cancelled
            }
            guard count > 0 else { return nil }
            let text = "\(count) \(status.rawValue)"
            switch status {
            case .passed: return style.green(text)
            case .failed, .errored: return style.red(text)
            case .skipped, .cancelled: return style.yellow(text)
            }
        }
    }

    // MARK: - Live progress

    private func shouldRefreshProgress(_ state: inout State) -> Bool {
        guard showsProgress else { return false }
        let now = ContinuousClock.now
        guard now - state.lastProgress >= .milliseconds(80) else { return false }
        state.lastProgress = now
        state.progressShown = true
        return true
    }

    private func drawProgress() {
        guard showsProgress, let progressOutput else { return }
        let (finished, running, counts, total, upload) = state.withLock {
            ($0.finished, $0.running, $0.counts, $0.plan?.testCount ?? 0, $0.upload)
        }
        output.flush()
        var line = "\r\u{1B}[2K[\(finished)/\(total)] \(running) running"
        for part in countParts(counts, statuses: [.failed, .errored]) { line += ", " + part }
        if let upload { line += " · " + Self.uploadText(sent: upload.sent, total: upload.total, since: upload.started) }
        progressOutput.write(line)
        progressOutput.flush()
    }

    /// `↑ 120.0 MiB of 1.0 GiB, 85.2 MiB/s`.
    static func uploadText(sent: Int64, total: Int64, since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let seconds = elapsed.inSeconds
        func bytes(_ count: Int64) -> String { ReportText.byteCount(count, digits: .oneDecimal) }
        var text = "↑ \(bytes(sent)) of \(bytes(total))"
        if seconds > 0.2 { text += ", \(bytes(Int64(Double(sent) / seconds)))/s" }
        return text
    }

    private func clearProgress() {
        if showsProgress { clearShownProgress() }
    }

    /// `clearProgress()` on a terminal, apart: inlined, the optional output was copied and destroyed for every test
    /// before `showsProgress` was tested.
    @inline(never)
    private func clearShownProgress() {
        guard let progressOutput else { return }
        let shown = state.withLock { state -> Bool in
            defer { state.progressShown = false }
            return state.progressShown
        }
        if shown {
            progressOutput.write("\r\u{1B}[2K")
            progressOutput.flush()
        }
    }
}

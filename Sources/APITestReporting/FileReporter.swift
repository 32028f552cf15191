package import APITestResults
package import APITestSupport
package import Foundation
import Synchronization

/// Writes one report file (JUnit XML, TAP, JSON or HTML) when the run finishes, including an interrupted run.
///
/// It keeps every result it is handed and, on `runFinished`, renders its format and writes the file as its
/// ``ReportDestination`` says: atomically, or through to a device or FIFO.
/// A file that cannot be written does not stop anything: the error is kept in `writeError` for the caller.
package final class FileReporter: Reporter {
    private struct State {
        var plan: RunPlan?
        var startedAt: Date?
        var results: [TestResult] = []
        var writeError: AtomicFileWriter.WriteError?
        var written = false
    }

    /// Where the report goes.
    package let path: String
    /// How it is written, when decided before the run; otherwise decided from `path` when the run finishes.
    package let destination: ReportDestination?
    /// What the report looks like.
    package let format: any ReportFormat
    private let hostname: String
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// - Parameters:
    ///   - path: the report file; its folder must exist.
    ///   - hostname: the machine named in the report (this machine by default).
    ///   - now: the wall clock, read when the run starts.
    package init(
        path: String, format: any ReportFormat, hostname: String = RunRecord.currentHostname,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = path
        self.destination = nil
        self.format = format
        self.hostname = hostname
        self.now = now
    }

    /// A reporter for a destination resolved (and so checked) before the run.
    package init(
        destination: ReportDestination, format: any ReportFormat, hostname: String = RunRecord.currentHostname,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = destination.path
        self.destination = destination
        self.format = format
        self.hostname = hostname
        self.now = now
    }

    /// What the report's format shows.
    package var resultDetail: ResultDetail { format.resultDetail }

    package func handle(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            let date = now()
            state.withLock {
                $0.plan = plan
                $0.startedAt = date
            }
        case .testFinished(let result):
            state.withLock { $0.results.append(result) }
        case .runFinished(let summary):
            let record = record(summary: summary)
            let text = format.render(record)
            var error: AtomicFileWriter.WriteError?
            do {
                try write(Array(text.utf8))
            } catch let failure {
                error = failure
            }
            state.withLock {
                $0.writeError = error
                $0.written = error == nil
            }
        default:
            // testStarted, progress: a file shows finished tests only.
            break
        }
    }

    /// Writes the rendered report to its destination (resolved now when it was not before the run).
    private func write(_ bytes: [UInt8]) throws(AtomicFileWriter.WriteError) {
        let resolved: ReportDestination
        if let destination {
            resolved = destination
        } else {
            do {
                resolved = try ReportDestination.resolve(path)
            } catch {
                throw AtomicFileWriter.WriteError(path: path, reason: error.reason)
            }
        }
        try resolved.write(bytes)
    }

    /// Why the file could not be written, once the run has finished; `nil` when it was written (or not yet tried).
    package var writeError: AtomicFileWriter.WriteError? { state.withLock { $0.writeError } }

    /// Whether the file has been written.
    package var written: Bool { state.withLock { $0.written } }

    /// The record of the events seen so far (the summary counted from the results when none is given).
    package func record(summary: RunSummary? = nil) -> RunRecord {
        let (plan, startedAt, results) = state.withLock { ($0.plan, $0.startedAt, $0.results) }
        let date = startedAt ?? now()
        return RunRecord(plan: plan, results: results, summary: summary, startedAt: date, hostname: hostname)
    }
}

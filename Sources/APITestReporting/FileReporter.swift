import APITestResults
import Foundation
import Synchronization

/// Writes one report file (JUnit XML, TAP, JSON or HTML) when the run finishes, including an interrupted run.
///
/// It keeps every result it is handed and, on `runFinished`, renders its format and writes the file atomically.
/// A file that cannot be written does not stop anything: the error is kept in `writeError` for the caller.
public final class FileReporter: Reporter {
    private struct State {
        var plan: RunPlan?
        var startedAt: Date?
        var results: [TestResult] = []
        var writeError: AtomicFileWriter.WriteError?
        var written = false
    }

    /// Where the report goes.
    public let path: String
    /// What the report looks like.
    public let format: any ReportFormat
    private let hostname: String
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// - Parameters:
    ///   - path: the report file; its folder must exist.
    ///   - hostname: the machine named in the report (this machine by default).
    ///   - now: the wall clock, read when the run starts.
    public init(
        path: String, format: any ReportFormat, hostname: String = RunRecord.currentHostname,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = path
        self.format = format
        self.hostname = hostname
        self.now = now
    }

    public func handle(_ event: RunEvent) {
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
                try AtomicFileWriter.write(Array(text.utf8), to: path)
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

    /// Why the file could not be written, once the run has finished; `nil` when it was written (or not yet tried).
    public var writeError: AtomicFileWriter.WriteError? { state.withLock { $0.writeError } }

    /// Whether the file has been written.
    public var written: Bool { state.withLock { $0.written } }

    /// The record of the events seen so far (the summary counted from the results when none is given).
    public func record(summary: RunSummary? = nil) -> RunRecord {
        let (plan, startedAt, results) = state.withLock { ($0.plan, $0.startedAt, $0.results) }
        let date = startedAt ?? now()
        return RunRecord(plan: plan, results: results, summary: summary, startedAt: date, hostname: hostname)
    }
}

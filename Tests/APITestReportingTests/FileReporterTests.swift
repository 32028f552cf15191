import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Synchronization
import Testing

/// Remembers the events it is handed.
private final class RecordingReporter: Reporter {
    let events = Mutex<[String]>([])

    func handle(_ event: RunEvent) {
        let name: String
        switch event {
        case .runStarted: name = "runStarted"
        case .testStarted(_, let test): name = "testStarted \(test)"
        case .testFinished(let result): name = "testFinished \(result.name)"
        case .runFinished: name = "runFinished"
        default: name = "other"
        }
        events.withLock { $0.append(name) }
    }
}

@Suite("File reporters")
struct FileReporterTests {
    /// Plays a run's events: the plan, each result, then the summary.
    private func play(_ reporter: any Reporter, results: [TestResult], interrupted: Bool = false) {
        reporter.handle(.runStarted(ReportFixtures.plan))
        var summary = RunSummary(duration: .milliseconds(20), interrupted: interrupted)
        for result in results {
            reporter.handle(.testStarted(suiteName: result.suiteName, testName: result.name))
            reporter.handle(.testFinished(result))
            summary.record(result.status)
        }
        reporter.handle(.runFinished(summary))
    }

    @Test("CompositeReporter hands every event to every reporter, in order")
    func fanOut() {
        let first = RecordingReporter()
        let second = RecordingReporter()
        play(CompositeReporter([first, second]), results: [ReportFixtures.passed])
        let expected = ["runStarted", "testStarted list users", "testFinished list users", "runFinished"]
        #expect(first.events.withLock { $0 } == expected)
        #expect(second.events.withLock { $0 } == expected)
    }

    @Test("each report is written when the run finishes, replacing an older file, leaving no temporary file")
    func writesAtomically() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let reporter = FileReporter(
            path: path, format: JSONReportFormat(), hostname: "h", now: { ReportFixtures.startedAt })
        reporter.handle(.runStarted(ReportFixtures.plan))
        reporter.handle(.testFinished(ReportFixtures.passed))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        reporter.handle(.runFinished(RunSummary(passed: 1)))
        #expect(reporter.written)
        #expect(reporter.writeError == nil)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"list users\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }

    @Test("an interrupted run still writes every finished test and lists the others as not run")
    func interrupted() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.tap").path
        let reporter = FileReporter(path: path, format: TAPReportFormat(), hostname: "h")
        play(reporter, results: [ReportFixtures.passed, ReportFixtures.cancelled], interrupted: true)
        let tap = try String(contentsOfFile: path, encoding: .utf8)
        #expect(tap.contains("ok 1 - Users API › list users\n"))
        // In plan order: the tests that never started stand where the suite file has them.
        #expect(tap.contains("ok 2 - Users API › create a user # SKIP not run: the run was interrupted\n"))
        #expect(tap.contains("not ok 5 - Users API › slow report # interrupted\n"))
        #expect(tap.contains("ok 6 - Users API › never started # SKIP not run: the run was interrupted\n"))
        #expect(tap.contains("1..6\n"))
    }

    @Test("a file that cannot be written is reported with its path; the other reports are still written")
    func writeError() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no/such/dir/junit.xml").path
        let good = directory.appendingPathComponent("junit.xml").path
        let broken = FileReporter(path: missing, format: JUnitReportFormat())
        let intoDirectory = FileReporter(path: directory.path, format: HTMLReportFormat())
        let working = FileReporter(path: good, format: JUnitReportFormat())
        play(CompositeReporter([broken, intoDirectory, working]), results: [ReportFixtures.passed])
        #expect(
            broken.writeError
                == AtomicFileWriter.WriteError(
                    path: missing, reason: "the folder '\(directory.path)/no/such/dir' does not exist"))
        #expect(intoDirectory.writeError?.reason == "is a directory")
        #expect(!broken.written)
        #expect(working.written)
        #expect(FileManager.default.fileExists(atPath: good))
    }

    @Test("the new file's permissions follow the umask, not the temporary file's 0600")
    func permissions() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("r.txt").path
        try AtomicFileWriter.write(Array("x".utf8), to: path)
        let mask = umask(0o022)
        umask(mask)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value
        #expect(permissions == 0o666 & ~UInt16(mask))
    }
}

import APITestHTTP
import APITestResults
import APITestSuite
import Foundation
import Testing

@testable import APITestRunner

/// The decode budget in a real run: tests in flight at once check their large bodies one at a time when the
/// budget holds one, against a file server on 127.0.0.1 that the test starts.
@Suite(.serialized) struct DecodeBudgetRunTests {
    @Test func concurrentTestsCheckLargeBodiesWithinTheBudget() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2 MiB of small arrays: each check reserves 8 MiB.
        var text = "["
        var index = 0
        while text.utf8.count < 2 << 20 {
            text += index == 0 ? "[\(index % 10),\(index % 7)]" : ",[\(index % 10),\(index % 7)]"
            index += 1
        }
        text += "]"
        try text.write(to: folder.appendingPathComponent("big.json"), atomically: true, encoding: .utf8)
        let server = try FileServer(folder: folder)
        defer { server.stop() }

        let tests = (0..<6).map { "  - {name: t\($0), request: {url: /big.json}, expect: {json: {'$[1][0]': 1}}}" }
        let yaml = "baseURL: http://127.0.0.1:\(server.port)\ntests:\n" + tests.joined(separator: "\n")
        let suite = try SuiteLoader(environment: [:]).load(source: yaml, file: "/r/budget.yaml")
        let runtime = SuiteRuntime(suite: suite, userAgent: "t")
        var options = RunOptions(jobs: 6)
        options.decodeMemoryBudget = 12 << 20
        let executor = TestExecutor(session: SessionManager(), options: options)
        let statuses = await withTaskGroup(of: TestStatus.self) { group in
            for test in suite.tests { group.addTask { await executor.run(test, in: runtime).status } }
            return await group.reduce(into: [TestStatus]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .passed, count: 6))
        // Six bodies costing 8 MiB each were checked, never two at once within 12 MiB.
        #expect(await executor.decodeBudget.peak == 4 * text.utf8.count)
    }
}

/// Python's `http.server` on a free port of 127.0.0.1, serving `folder`.
private final class FileServer: @unchecked Sendable {
    let process = Process()
    let port: Int

    init(folder: URL) throws {
        let output = Pipe()
        // The system Python itself, not a shim that would stand between the signal and the server.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path,
        ]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let match = line.firstMatch(of: /port (\d+)/), let port = Int(match.1) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    /// Kills the server (SIGKILL: the test process may block SIGTERM in what its children inherit).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

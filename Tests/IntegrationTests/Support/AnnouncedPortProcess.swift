import Foundation

// MARK: - AnnouncedPortProcess

/// A server process that binds 127.0.0.1:0 itself and prints the port it got as the last word of its first line of
/// standard output once the socket listens (`Fixtures/announced_port_server.py` prints only the port,
/// `Fixtures/websocket_servers.py` `… on port PORT`): no port is chosen
/// before the server binds it, so no other process can take it in between, and nothing is polled. Its standard
/// error goes to a temporary file, kept for the failure message and removed on ``stop()``.
final class AnnouncedPortProcess: @unchecked Sendable {
    let port: Int
    let process: Process
    private let errorLog: URL

    /// Runs `python3 arguments…` and returns once it has printed its port. `what` names the server in the error
    /// thrown when it exits or prints something else first (with its standard error).
    init(python arguments: [String], environment: [String: String]? = nil, what: String) throws {
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "announced-port-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        if let environment { process.environment = environment }
        let announcement = Pipe()
        process.standardOutput = announcement
        process.standardError = try FileHandle(forWritingTo: errorLog)
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: errorLog)
            throw error
        }
        var buffer = Data()
        let handle = announcement.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let text = String(decoding: buffer, as: UTF8.self)
        let line = text.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let word = line.split(separator: " ").last, let port = Int(word), port > 0, port < 65536 else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorLog)
            throw FixtureError(
                "\(what) did not start (run scripts/install-deps.sh): printed '\(line.prefix(200))', "
                    + "exit status \(process.terminationStatus), stderr: \(errors.suffix(3000))")
        }
        // Anything it prints later is read away, so that the server never blocks on a full pipe.
        _ = PipeDrain(handle)
        self.port = port
        self.process = process
        self.errorLog = errorLog
    }

    /// What the server has written to standard error so far.
    var standardError: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Kills the server and removes its standard-error file.
    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: errorLog)
    }

    deinit { stop() }
}

import Foundation

/// `Fixtures/tls_recorder.py`: a TLS server that logs every byte received after each handshake.
final class TLSRecorderServer: @unchecked Sendable {
    let port: Int
    let logFile: URL
    private let process: Process

    init(chain: String, key: String) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("tls-rec-\(UUID().uuidString).log")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tls_recorder.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--cert", chain, "--key", key, "--log", logFile.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = line.split(separator: " ").last.flatMap({ Int($0) }) else {
            stopProcess(process)
            throw FixtureError("tls_recorder.py said: \(line)")
        }
        self.port = port
    }

    /// One line per connection: `handshake-failed: ...` or `received N bytes: ...`.
    var log: [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}

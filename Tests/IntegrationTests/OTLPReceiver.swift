import Foundation

/// `Fixtures/otlp_receiver.py` on a loopback port of its own: an OTLP/HTTP trace receiver that parses every export with
/// the OpenTelemetry project's own protobuf definitions (PyPI's opentelemetry-proto, installed by
/// `scripts/install-deps.sh`), and, on any other path, the tested service, which records the W3C trace headers it
/// is sent. What it received is read back with ``entries()``. Fails clearly when the package is missing. Stopped on
/// `stop()`/deinit.
final class OTLPReceiver: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let output: URL
    private let errors: Pipe

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the receiver on a port the system picks, writing what it receives to `output`; returns once it
    /// listens (it prints its port only then).
    init(output: URL) throws {
        self.output = output
        let script = FaultServer.scriptURL("otlp_receiver.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "0", output.path]
        let announcement = Pipe()
        let errors = Pipe()
        process.standardOutput = announcement
        process.standardError = errors
        try process.run()
        var buffer = Data()
        let handle = announcement.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        guard let port = Int(String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            stopProcess(process)
            let text = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "the OTLP receiver did not start (run scripts/install-deps.sh for opentelemetry-proto): \(text)"
                ])
        }
        self.port = port
        self.process = process
        self.errors = errors
    }

    /// Everything received so far, in order: one dictionary per export (`kind: export`), rejected document
    /// (`kind: invalid`) or request to the tested service (`kind: request`).
    func entries() throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The spans of every export, in the order they came.
    func spans() throws -> [[String: Any]] {
        try entries().filter { $0["kind"] as? String == "export" }.flatMap { $0["spans"] as? [[String: Any]] ?? [] }
    }

    /// The requests the tested service answered, in order.
    func requests() throws -> [[String: Any]] {
        try entries().filter { $0["kind"] as? String == "request" }
    }

    /// What a failed expectation shows: whether the receiver still runs and, when it has stopped, its standard error.
    func diagnostics() -> String {
        guard !process.isRunning else { return "the receiver is running" }
        return "the receiver exited: " + String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }

    func stop() { stopProcess(process) }

    deinit { stopProcess(process) }
}

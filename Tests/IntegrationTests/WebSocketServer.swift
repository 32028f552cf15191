import Foundation

/// `Fixtures/websocket_servers.py` in one of its modes (`echo`: the `websockets` library; `starlette`: a Starlette
/// app on uvicorn; `hostile`: a raw server that breaks RFC 6455), on a free loopback port; stopped on
/// `stop()`/deinit. The packages come from PyPI (`scripts/install-deps.sh`); a server that cannot start fails the
/// test with what it printed.
final class WebSocketServer: @unchecked Sendable {
    let port: Int
    let logFile: URL
    private let process: Process
    private let output: URL

    /// `ws://127.0.0.1:port` (`wss://localhost:port` for a TLS server).
    let baseURL: String

    init(mode: String, certificate: String? = nil, key: String? = nil) throws {
        let id = UUID().uuidString
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(id).log")
        output = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(id).out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = [
            "python3", FaultServer.scriptURL("websocket_servers.py").path, "--mode", mode, "--port", "0", "--log",
            logFile.path,
        ]
        if let certificate, let key { arguments += ["--cert", certificate, "--key", key] }
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        var port: Int?
        for _ in 0..<300 where port == nil && process.isRunning {
            usleep(50_000)
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains(" on port ") }),
                let last = line.split(separator: " ").last
            {
                port = Int(last)
            }
        }
        guard let port else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            stopProcess(process)
            try? FileManager.default.removeItem(at: output)
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "the \(mode) WebSocket server did not start: \(text)"])
        }
        self.port = port
        baseURL = certificate == nil ? "ws://127.0.0.1:\(port)" : "wss://localhost:\(port)"
    }

    /// The lines the server logged (the hostile server's `close <path> <code>`).
    var logLines: [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: logFile)
        try? FileManager.default.removeItem(at: output)
    }

    deinit { stop() }
}

import Foundation

/// `Fixtures/websocket_servers.py` in one of its modes (`echo`: the `websockets` library; `starlette`: a Starlette
/// app on uvicorn; `hostile`: a raw server that breaks RFC 6455), on a loopback port the server binds itself and
/// names on its first line of output once it listens; stopped on `stop()`/deinit. The packages come from PyPI
/// (`scripts/install-deps.sh`); a server that cannot start fails the test with its standard error.
final class WebSocketServer: @unchecked Sendable {
    let port: Int
    let logFile: URL
    private let server: AnnouncedPortProcess

    /// `ws://127.0.0.1:port` (`wss://localhost:port` for a TLS server).
    let baseURL: String

    init(mode: String, certificate: String? = nil, key: String? = nil) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(UUID().uuidString).log")
        var arguments = [
            FaultServer.scriptURL("websocket_servers.py").path, "--mode", mode, "--port", "0", "--log", logFile.path,
        ]
        if let certificate, let key { arguments += ["--cert", certificate, "--key", key] }
        server = try AnnouncedPortProcess(python: arguments, what: "the \(mode) WebSocket server")
        port = server.port
        baseURL = certificate == nil ? "ws://127.0.0.1:\(port)" : "wss://localhost:\(port)"
    }

    /// The lines the server logged (the hostile server's `close <path> <code>`).
    var logLines: [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}

import Foundation

// MARK: - ConnectProxy

/// A real HTTP proxy (proxy.py from PyPI, `Fixtures/connect_proxy.py`) on 127.0.0.1: forwards plain HTTP and opens
/// CONNECT tunnels to any port. ``log`` is its access log, one line per request or tunnel.
final class ConnectProxy: @unchecked Sendable {
    private let process: AnnouncedPortProcess

    /// Starts the proxy and returns once it listens.
    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/connect_proxy.py")
        process = try AnnouncedPortProcess(python: [script.path], what: "the proxy.py proxy")
    }

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(process.port)" }

    /// What the proxy has logged so far (its standard error).
    var log: String { process.standardError }

    /// Stops the proxy.
    func stop() { process.stop() }
}

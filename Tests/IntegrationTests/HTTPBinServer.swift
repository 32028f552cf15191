import Foundation

/// httpbin (from PyPI, installed by `scripts/install-deps.sh`) on werkzeug's threaded server, on a loopback port the
/// server binds itself and prints once it listens (`Fixtures/announced_port_server.py`): a server nobody here wrote,
/// for Digest, basic and bearer authentication. Fails clearly, with httpbin's standard error, when it cannot start.
/// Stopped on `stop()`/deinit.
final class HTTPBinServer: @unchecked Sendable {
    let port: Int
    private let server: AnnouncedPortProcess

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() throws {
        server = try AnnouncedPortProcess(
            python: [FaultServer.scriptURL("announced_port_server.py").path, "wsgi", "httpbin.core:app"],
            what: "httpbin")
        port = server.port
    }

    func stop() { server.stop() }

    deinit { stop() }
}

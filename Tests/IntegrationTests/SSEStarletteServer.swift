import Foundation

/// An ASGI app of `Fixtures/` on uvicorn (from PyPI, installed by `scripts/install-deps.sh`) on a loopback port the
/// server binds itself and prints once it listens (`Fixtures/announced_port_server.py`): `sse_starlette_app:app`
/// (sse-starlette, an event-stream server nobody here wrote) by default, or another (`strawberry_app:app`, a GraphQL
/// API). Fails clearly, with the server's standard error, when the packages are missing. Stopped on `stop()`/deinit.
final class SSEStarletteServer: @unchecked Sendable {
    let port: Int
    private let server: AnnouncedPortProcess

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(app: String = "sse_starlette_app:app") throws {
        let launcher = FaultServer.scriptURL("announced_port_server.py")
        server = try AnnouncedPortProcess(
            python: [launcher.path, "asgi", app, "--app-dir", launcher.deletingLastPathComponent().path],
            what: "\(app) on uvicorn")
        port = server.port
    }

    func stop() { server.stop() }

    deinit { stop() }
}

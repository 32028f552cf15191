import Foundation

/// An ASGI app of `Fixtures/` on uvicorn (from PyPI, installed by `scripts/install-deps.sh`) on a free loopback
/// port: `sse_starlette_app:app` (sse-starlette, an event-stream server nobody here wrote) by default, or another
/// (`strawberry_app:app`, a GraphQL API). Fails clearly when the packages are missing. Stopped on `stop()`/deinit.
final class SSEStarletteServer: @unchecked Sendable {
    let port: Int
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(app: String = "sse_starlette_app:app") throws {
        let fixtures = FaultServer.scriptURL("sse_starlette_app.py").deletingLastPathComponent()
        var lastError: Error?
        for _ in 0..<5 {
            let port = try freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", "-m", "uvicorn", "--app-dir", fixtures.path, app, "--host", "127.0.0.1",
                "--port", String(port), "--log-level", "warning",
            ]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            for _ in 0..<200 where process.isRunning && !acceptsConnections(port: port) { usleep(50_000) }
            if process.isRunning, acceptsConnections(port: port) {
                self.port = port
                self.process = process
                return
            }
            stopProcess(process)
            let text = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            lastError = CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(app) on uvicorn did not start (run scripts/install-deps.sh): \(text)"
                ])
        }
        throw lastError ?? CocoaError(.fileReadUnknown)
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
}

import Foundation

/// httpbin (from PyPI, installed by `scripts/install-deps.sh`) on a free loopback port: a server nobody here wrote,
/// for Digest, basic and bearer authentication. Stopped on `stop()`/deinit.
final class HTTPBinServer: @unchecked Sendable {
    let port: Int
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() throws {
        var lastError: Error?
        for _ in 0..<5 {
            let port = try freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-m", "httpbin.core", "--host", "127.0.0.1", "--port", String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<200 where process.isRunning && !acceptsConnections(port: port) { usleep(50_000) }
            if process.isRunning, acceptsConnections(port: port) {
                self.port = port
                self.process = process
                return
            }
            stopProcess(process)
            lastError = CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "httpbin did not start"])
        }
        throw lastError ?? CocoaError(.fileReadUnknown)
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
}

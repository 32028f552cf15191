import Foundation

/// nginx on 127.0.0.1 for the transport options: an HTTP/1.1 listener, an h2c listener (HTTP/2 with prior
/// knowledge) and a unix socket; every path answers with the protocol, the `Host` and the request line it saw, as
/// `protocol|host|request line`. Stopped on `stop()`.
final class TransportServer: @unchecked Sendable {
    /// The HTTP/1.1 port.
    let port: Int
    /// The port that speaks HTTP/2 without TLS (prior knowledge only).
    let h2cPort: Int
    /// The unix socket's path.
    let socketPath: String
    private let process: Process
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("api.sock").path
        var lastError: Error?
        for _ in 0..<5 {
            let port = try freePort()
            let h2cPort = try freePort()
            let answer = #"location / { default_type text/plain; return 200 "$server_protocol|$host|$request"; }"#
            let config = """
                worker_processes 1;
                daemon off;
                error_log \(directory.path)/error.log;
                pid \(directory.path)/nginx.pid;
                events { worker_connections 256; }
                http {
                  access_log off;
                  client_body_temp_path \(directory.path);
                  server { listen 127.0.0.1:\(port); listen unix:\(socketPath); \(answer) }
                  server { listen 127.0.0.1:\(h2cPort) http2; \(answer) }
                }
                """
            let configFile = directory.appendingPathComponent("nginx.conf")
            try config.write(to: configFile, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = ["-c", configFile.path, "-p", directory.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitForListeners([port, h2cPort], process: process) {
                self.port = port
                self.h2cPort = h2cPort
                self.process = process
                return
            }
            stopProcess(process, signal: SIGTERM)
            lastError = CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start"])
        }
        throw lastError ?? CocoaError(.fileReadUnknown)
    }

    private static func waitForListeners(_ ports: [Int], process: Process) -> Bool {
        for _ in 0..<100 {
            guard process.isRunning else { return false }
            if ports.allSatisfy(acceptsConnections(port:)) { return true }
            usleep(50_000)
        }
        return false
    }

    func stop() {
        stopProcess(process, signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

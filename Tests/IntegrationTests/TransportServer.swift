import Foundation

/// nginx on 127.0.0.1 for the transport options: an HTTP/1.1 listener, an h2c listener (HTTP/2 with prior
/// knowledge) and a unix socket; every path answers with the protocol, the `Host` and the request line it saw, as
/// `protocol|host|request line`. Stopped on `stop()`.
final class TransportServer: @unchecked Sendable {
    /// The HTTP/1.1 port.
    let port: Int
    /// The port that speaks HTTP/2 without TLS (prior knowledge only).
    let h2cPort: Int
    /// A port whose every path answers with the request's `Authorization` header, as it arrived.
    let authorizationPort: Int
    /// The unix socket's path.
    let socketPath: String
    private let process: Process
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("api.sock").path
        let answer = #"location / { default_type text/plain; return 200 "$server_protocol|$host|$request"; }"#
        let (process, ports) = try NginxLauncher.start(in: directory, portCount: 3) { [socketPath] ports in
            """
              server { listen 127.0.0.1:\(ports[0]); listen unix:\(socketPath); \(answer) }
              server { listen 127.0.0.1:\(ports[1]) http2; \(answer) }
              server {
                listen 127.0.0.1:\(ports[2]);
                location / { default_type text/plain; return 200 "$http_authorization"; }
              }
            """
        }
        self.process = process
        port = ports[0]
        h2cPort = ports[1]
        authorizationPort = ports[2]
    }

    func stop() {
        stopProcess(process, signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Fixtures/grpc_test_server.py` (grpcio from PyPI, installed by `scripts/install-deps.sh`) on 127.0.0.1, on a port
/// the server chose and printed once it listens; plaintext (h2c) or TLS with a self-signed certificate for
/// `localhost` and 127.0.0.1 that `makeCertificate` makes with openssl. Fails clearly (with the server's standard
/// error) when grpcio is missing. Stopped on `stop()`/deinit.
final class GRPCTestServer: @unchecked Sendable {
    private let server: AnnouncedPortProcess

    /// The port the server chose.
    var port: Int { server.port }

    /// The plaintext server's base URL.
    var plainURL: String { "http://127.0.0.1:\(port)" }

    /// The TLS server's base URL, by name (resolved to 127.0.0.1 through a `--resolve` entry in the tests).
    var tlsURL: String { "https://localhost:\(port)" }

    init(certificate: GRPCTestCertificate? = nil) throws {
        var arguments = [FaultServer.scriptURL("grpc_test_server.py").path]
        if let certificate { arguments += ["--cert", certificate.certificatePath, "--key", certificate.keyPath] }
        server = try AnnouncedPortProcess(python: arguments, what: "the grpcio test server (grpcio)")
    }

    func stop() { server.stop() }
}

/// A self-signed certificate for `localhost` and 127.0.0.1 made with openssl in a temporary folder, with its SPKI pin
/// from the openssl pipeline.
struct GRPCTestCertificate: Sendable {
    let directory: URL
    let pin: String

    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    var keyPath: String { directory.appendingPathComponent("key.pem").path }

    static func make() async throws -> GRPCTestCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-grpc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            set -e
            cd '\(directory.path)'
            openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=localhost \
              -addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' 2>/dev/null
            openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
              | openssl dgst -sha256 -binary | base64
            """
        let result = try await runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        guard result.exitCode == 0 else { throw FixtureError("openssl failed: \(result.stderr.suffix(2000))") }
        return GRPCTestCertificate(
            directory: directory, pin: "sha256//" + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

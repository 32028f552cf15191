import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Fixtures/grpc_test_server.py` (grpcio from PyPI, installed by `scripts/install-deps.sh`) on 127.0.0.1, on a port
/// the server chose and printed once it listens; plaintext (h2c) or TLS with a self-signed certificate for
/// `localhost` and 127.0.0.1 that `makeCertificate` makes with openssl. Fails clearly (with the server's standard
/// error) when grpcio is missing. Stopped on `stop()`/deinit.
final class GRPCTestServer: @unchecked Sendable {
    let port: Int
    private let process: Process

    /// The plaintext server's base URL.
    var plainURL: String { "http://127.0.0.1:\(port)" }

    /// The TLS server's base URL, by name (resolved to 127.0.0.1 through a `--resolve` entry in the tests).
    var tlsURL: String { "https://localhost:\(port)" }

    init(certificate: GRPCTestCertificate? = nil) throws {
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "grpc-server-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", FaultServer.scriptURL("grpc_test_server.py").path]
        if let certificate { arguments += ["--cert", certificate.certificatePath, "--key", certificate.keyPath] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line), port > 0 else {
            process.waitUntilExit()
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorLog)
            throw FixtureError(
                "the grpcio test server did not start (run scripts/install-deps.sh for grpcio): said '\(line)', "
                    + "stderr: \(errors.suffix(3000))")
        }
        try? FileManager.default.removeItem(at: errorLog)
        self.port = port
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
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

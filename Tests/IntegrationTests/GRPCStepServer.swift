import Foundation

/// `Fixtures/grpc_step_server.py` (grpcio and protobuf from PyPI, installed by `scripts/install-deps.sh`) on
/// 127.0.0.1: the `acme.Users` service of `Fixtures/grpc_step/users.proto` with dynamic messages, from a descriptor
/// set protoc makes here. Plaintext (h2c), or TLS with a `GRPCTestCertificate`. Its port is read from its first line,
/// printed once it listens; it fails clearly (with the server's standard error) when grpcio is missing. Stopped on
/// `stop()`/deinit.
final class GRPCStepServer: @unchecked Sendable {
    private let server: AnnouncedPortProcess
    private let scratch: URL

    /// The port the server chose.
    var port: Int { server.port }

    /// The folder of `users.proto`.
    static var protoFolder: URL { FaultServer.scriptURL("grpc_step") }

    /// The plaintext server's URL in a suite.
    var grpcURL: String { "grpc://127.0.0.1:\(port)" }

    init(certificate: GRPCTestCertificate? = nil) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-step-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let set = scratch.appendingPathComponent("set.pb")
        let protoc = Process()
        protoc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        protoc.arguments = [
            "protoc", "--include_imports", "--descriptor_set_out=\(set.path)",
            "--proto_path=\(Self.protoFolder.path)", "users.proto", "status.proto",
        ]
        let protocErrors = Pipe()
        protoc.standardError = protocErrors
        try protoc.run()
        let protocText = String(decoding: protocErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        protoc.waitUntilExit()
        guard protoc.terminationStatus == 0 else {
            throw FixtureError("protoc failed (install protobuf-compiler): \(protocText.suffix(2000))")
        }
        var arguments = [FaultServer.scriptURL("grpc_step_server.py").path, "--descriptor-set", set.path]
        if let certificate { arguments += ["--cert", certificate.certificatePath, "--key", certificate.keyPath] }
        do {
            server = try AnnouncedPortProcess(python: arguments, what: "the grpc step server (grpcio and protobuf)")
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    deinit { stop() }
}

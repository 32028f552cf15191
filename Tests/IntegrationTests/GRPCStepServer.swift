import Foundation

/// `Fixtures/grpc_step_server.py` (grpcio and protobuf from PyPI, installed by `scripts/install-deps.sh`) on
/// 127.0.0.1: the `acme.Users` service of `Fixtures/grpc_step/users.proto` with dynamic messages, from a descriptor
/// set protoc makes here. Plaintext (h2c), or TLS with a `GRPCTestCertificate`. Its port is read from its first line,
/// printed once it listens; it fails clearly (with the server's standard error) when grpcio is missing. Stopped on
/// `stop()`/deinit.
final class GRPCStepServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let scratch: URL

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
        let errorLog = scratch.appendingPathComponent("server.err")
        FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", FaultServer.scriptURL("grpc_step_server.py").path, "--descriptor-set", set.path]
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
            try? FileManager.default.removeItem(at: scratch)
            throw FixtureError(
                "the grpc step server did not start (run scripts/install-deps.sh for grpcio and protobuf): said "
                    + "'\(line)', stderr: \(errors.suffix(3000))")
        }
        self.port = port
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: scratch)
    }

    deinit { stop() }
}

import APITestProtobuf
import Foundation

/// `Fixtures/grpc_reflection_server.py` (grpcio with grpcio-reflection, from PyPI, installed by
/// `scripts/install-deps.sh`) on 127.0.0.1: the services of `Fixtures/grpc_reflection/acme/...` (a users service
/// importing a shared file of another package that imports `google/protobuf/timestamp.proto`, and a billing service),
/// with reflection served as `mode` says (`v1`, `v1alpha`, `both`, `none`, `junk`), over h2c or TLS with a
/// `GRPCTestCertificate`. Started on a port the server chose and printed once it listens; fails clearly (with the
/// server's standard error) when a module is missing.
final class GRPCReflectionServer: @unchecked Sendable {
    private let server: AnnouncedPortProcess
    private let folder: URL

    /// The port the server chose.
    var port: Int { server.port }

    /// The server's base URL (h2c).
    var url: String { "http://127.0.0.1:\(port)" }

    /// The TLS server's base URL, by name (resolved to 127.0.0.1 through a `--resolve` entry in the tests).
    var tlsURL: String { "https://localhost:\(port)" }

    /// The folder of the fixture `.proto` files.
    static let protos = FaultServer.scriptURL("grpc_reflection")

    /// The fixture files as `protoc` compiles them (imports included): the FileDescriptorSet the server serves.
    static func descriptorSet() throws -> [UInt8] {
        try ProtocRunner().descriptorSet(
            files: ["acme/users/v1/users.proto", "acme/billing/v1/billing.proto"], importPaths: ["."],
            workingDirectory: protos.path)
    }

    init(mode: String, shallow: Bool = false, certificate: GRPCTestCertificate? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-reflection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let set = folder.appendingPathComponent("set.pb")
        try Data(Self.descriptorSet()).write(to: set)
        let arguments =
            [
                FaultServer.scriptURL("grpc_reflection_server.py").path, "--descriptor-set", set.path, "--reflection",
                mode,
            ]
            + (shallow ? ["--shallow"] : [])
            + (certificate.map { ["--cert", $0.certificatePath, "--key", $0.keyPath] } ?? [])
        do {
            server = try AnnouncedPortProcess(
                python: arguments, what: "the grpcio reflection server (grpcio and grpcio-reflection)")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}

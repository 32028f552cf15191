import Foundation

/// grpcio's step server (`GRPCStepServer`: `acme.Users` of `Fixtures/grpc_step/users.proto`) and a temporary folder
/// holding a copy of `users.proto` beside the suites a test writes there; the server stops and the folder goes
/// when the fixture does. Shared by the gRPC step, coverage and trailer-check tests.
final class GRPCStepFixture {
    /// The running server.
    let server: GRPCStepServer
    /// The test's own folder, with `users.proto` in it.
    let folder: URL

    /// Starts a server and makes a folder named `<prefix>-<UUID>` in the temporary directory.
    init(folderPrefix prefix: String) throws {
        server = try GRPCStepServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let proto = try String(
                contentsOf: GRPCStepServer.protoFolder.appendingPathComponent("users.proto"), encoding: .utf8)
            try proto.write(to: folder.appendingPathComponent("users.proto"), atomically: true, encoding: .utf8)
        } catch {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

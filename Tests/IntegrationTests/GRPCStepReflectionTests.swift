import Foundation
import Testing

/// `grpc:` steps of a suite with `reflection: true`: the schema is read from grpcio-reflection's service
/// (`Fixtures/grpc_reflection_server.py`), and what would be a load error with `.proto` files (an unknown method or
/// field) errors the step, located at it, with the same did-you-mean.
@Suite(.serialized) final class GRPCStepReflectionTests {
    let server: GRPCReflectionServer
    let folder: URL

    init() throws {
        server = try GRPCReflectionServer(mode: "v1")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-grpc-refl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ tests: String) async throws -> ProcessResult {
        let suite = folder.appendingPathComponent("suite.yaml")
        try ("grpc: {reflection: true}\n" + tests).write(to: suite, atomically: true, encoding: .utf8)
        return try await runAPITest(["run", suite.path, "--verbose"])
    }

    @Test func aCallWithTheSchemaTheServerReflects() async throws {
        let result = try await run(
            """
            tests:
              - name: reflected
                steps:
                  - grpc: {url: "\(server.url)", method: acme.users.v1.Users/GetUser, message: {id: "7"}}
                    expect: {json: {$.id: "7"}}
                  - grpc: {url: "\(server.url)", method: acme.users.v1.Users/ListUsers, message: {}}
                    expect: {events: {count: 2}}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func unknownNamesErrorTheStepWhereItIsWritten() async throws {
        let result = try await run(
            """
            tests:
              - name: method
                steps:
                  - grpc: {url: "\(server.url)", method: acme.users.v1.Users/GetUsr, message: {id: "7"}}
              - name: field
                steps:
                  - grpc: {url: "\(server.url)", method: acme.users.v1.Users/GetUser, message: {idd: "7"}}
            """)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("suite.yaml:5:") && result.stdout.contains("did you mean 'GetUser'?"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains("suite.yaml:8:") && result.stdout.contains("unknown field 'idd'")
                && result.stdout.contains("did you mean 'id'?"), "\(result.stdout)")
    }

    @Test func aServerWithoutReflectionErrorsTheStep() async throws {
        let plain = try GRPCReflectionServer(mode: "none")
        defer { plain.stop() }
        let result = try await run(
            """
            tests:
              - name: none
                steps:
                  - grpc: {url: "\(plain.url)", method: acme.users.v1.Users/GetUser, message: {id: "7"}}
            """)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("cannot read the server's schema through reflection"), "\(result.stdout)")
    }
}

import Foundation
import Testing

/// `apitest fuzz` takes `run`'s TLS and transport flags, read by `run`'s one conversion (`RunOptions(jobs:requests:
/// security:transport:)`) and applied by the runner's `RequestTransfer`: against nginx over HTTPS with a chain from a
/// root made at test time (TLSServer), the root is trusted only through `--ca-file`, and `--connect-to` takes requests
/// for a port where nothing listens to the server's. The old command refused these flags (exit 2).
@Suite(.serialized) final class FuzzTransportTests {
    let certificates: TestCertificates
    let server: TLSServer
    let folder: URL

    static let document = """
        openapi: 3.0.3
        info: {title: tls, version: "1"}
        paths:
          /status:
            get:
              operationId: status
              parameters:
                - {name: q, in: query, schema: {type: integer, minimum: 0, maximum: 9}}
              responses:
                "200":
                  description: ok
                  content: {application/json: {schema: {type: object, properties: {tls: {type: boolean}}}}}
        """

    init() throws {
        let certificates = try TestCertificates.make()
        do {
            server = try TLSServer(certificates: certificates)
        } catch {
            certificates.remove() // deinit does not run when init throws
            throw error
        }
        self.certificates = certificates
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-fuzz-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.document.write(to: folder.appendingPathComponent("tls.yaml"), atomically: true, encoding: .utf8)
    }

    deinit {
        server.stop()
        certificates.remove()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `apitest fuzz tls.yaml` with `arguments`, the examples and fuzzing phases, checks nginx's constant answer keeps.
    func fuzz(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", "tls.yaml", "--seed", "1", "--max-examples", "5", "--phases", "coverage,fuzzing", "--checks",
                "not_a_server_error,status_code_conformance,response_schema_conformance", "--findings", "found",
                "--no-color",
            ] + arguments, currentDirectory: folder, timeout: .seconds(120))
    }

    @Test func aPrivateRootIsTrustedThroughCAFileOnly() async throws {
        let untrusted = try await fuzz(["--base-url", server.baseURL])
        #expect(untrusted.exitCode == 3, "\(untrusted.stdout)\n\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("got a response"), "\(untrusted.stderr)")

        let trusted = try await fuzz([
            "--base-url", server.baseURL, "--ca-file", certificates.rootCertificate.path,
        ])
        #expect(trusted.exitCode == 0, "\(trusted.stdout)\n\(trusted.stderr)")
        #expect(trusted.stdout.contains("1/1 operations covered"), "\(trusted.stdout)")
    }

    @Test func connectToTakesRequestsToTheServer() async throws {
        let closed = try closedPort()
        let base = "https://localhost:\(closed)"
        let trust = ["--ca-file", certificates.rootCertificate.path]
        let refused = try await fuzz(["--base-url", base] + trust)
        #expect(refused.exitCode == 3, "\(refused.stdout)\n\(refused.stderr)")

        let redirected = try await fuzz(
            ["--base-url", base, "--connect-to", "localhost:\(closed):localhost:\(server.port)"] + trust)
        #expect(redirected.exitCode == 0, "\(redirected.stdout)\n\(redirected.stderr)")
        #expect(redirected.stdout.contains("1/1 operations covered"), "\(redirected.stdout)")
    }

    @Test func aPinnedCertificateFileWithoutACertificateIsAUsageError() async throws {
        let empty = folder.appendingPathComponent("empty.pem")
        try Data("not a certificate\n".utf8).write(to: empty)
        let result = try await fuzz(["--base-url", server.baseURL, "--certificate", empty.path])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("no PEM or DER certificate found"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was sent"), "\(result.stderr)")
    }
}

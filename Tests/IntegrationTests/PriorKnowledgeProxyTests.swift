import Foundation
import Testing

/// HTTP/2 with prior knowledge through a real HTTP proxy (proxy.py): gRPC calls over h2c and HTTP steps asking for
/// `2-prior-knowledge` go through a CONNECT tunnel (libcurl would otherwise speak HTTP/1.1 to the proxy), each on a
/// connection of its own (libcurl 7.88 fails a second prior-knowledge request on a connection), and gRPC over TLS
/// with a pin through the proxy too.
@Suite(.serialized) final class PriorKnowledgeProxyTests {
    let proxy: ConnectProxy
    let server: GRPCStepServer
    let folder: URL

    init() throws {
        proxy = try ConnectProxy()
        server = try GRPCStepServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-pk-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let proto = try String(
            contentsOf: GRPCStepServer.protoFolder.appendingPathComponent("users.proto"), encoding: .utf8)
        try proto.write(to: folder.appendingPathComponent("users.proto"), atomically: true, encoding: .utf8)
    }

    deinit {
        proxy.stop()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `text` as a suite in the test's folder and runs it.
    private func run(_ text: String) async throws -> ProcessResult {
        let suite = folder.appendingPathComponent("suite-\(UUID().uuidString).yaml")
        try text.write(to: suite, atomically: true, encoding: .utf8)
        return try await runAPITest(["run", suite.path])
    }

    @Test func grpcCallsOverH2CGoThroughTheProxysTunnelOneAfterAnother() async throws {
        let calls = (1...3).map { index in
            """
                  - grpc:
                      url: \(server.grpcURL)
                      method: acme.Users/GetUser
                      message: {id: "p\(index)"}
                      proxy: \(proxy.url)
                    expect: {json: {$.name: Ada p\(index)}}
            """
        }
        let result = try await run(
            "grpc: {proto: [users.proto]}\ntests:\n  - name: proxied\n    steps:\n" + calls.joined(separator: "\n"))
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
        let tunnels = proxy.log.components(separatedBy: "CONNECT 127.0.0.1:\(server.port)").count - 1
        #expect(tunnels == 3, "one tunnel per call: \(proxy.log)")
    }

    @Test func grpcOverTLSWithAPinGoesThroughTheProxy() async throws {
        let certificate = try await GRPCTestCertificate.make()
        defer { certificate.remove() }
        let secure = try GRPCStepServer(certificate: certificate)
        defer { secure.stop() }
        let result = try await run(
            """
            grpc: {proto: [users.proto]}
            security: {caFile: \(certificate.certificatePath), pinning: publicKey, pins: ["\(certificate.pin)"]}
            tests:
              - name: pinned through the proxy
                steps:
                  - grpc:
                      url: "grpcs://localhost:\(secure.port)"
                      method: acme.Users/GetUser
                      message: {id: t}
                      proxy: \(proxy.url)
                    expect: {json: {$.name: Ada t}}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(proxy.log.contains("CONNECT localhost:\(secure.port)"), "\(proxy.log)")
    }

    @Test func httpStepsWithPriorKnowledgeGoThroughTheProxysTunnel() async throws {
        let nginx = try TransportServer()
        defer { nginx.stop() }
        let tests = (1...3).map { index in
            """
              - name: h2c \(index)
                request:
                  url: "http://127.0.0.1:\(nginx.h2cPort)/p\(index)"
                  httpVersion: 2-prior-knowledge
                  proxy: \(proxy.url)
                expect: {body: {startsWith: "HTTP/2.0|127.0.0.1|"}}
            """
        }
        let result = try await run("name: h2c\ntests:\n" + tests.joined(separator: "\n"))
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 passed"), "\(result.stdout)")
        #expect(proxy.log.contains("CONNECT 127.0.0.1:\(nginx.h2cPort)"), "\(proxy.log)")
    }
}

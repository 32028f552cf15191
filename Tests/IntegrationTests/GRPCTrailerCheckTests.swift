import Foundation
import Testing

/// A failed check of a gRPC call's trailers names the trailer (`trailer x-trace`), not a header, in the console and
/// the JSON report; a response metadata check stays `header ...`. Against grpcio's step server (`GRPCStepServer`),
/// whose GetUser sends the trailer `x-trace: t-1` and the header `x-served-by: step-server`.
@Suite(.serialized) final class GRPCTrailerCheckTests {
    let fixture: GRPCStepFixture
    var server: GRPCStepServer { fixture.server }
    var folder: URL { fixture.folder }

    init() throws {
        fixture = try GRPCStepFixture(folderPrefix: "apitest-grpc-trl")
    }

    @Test func aFailedTrailerCheckIsLabelledTrailer() async throws {
        let suite = folder.appendingPathComponent("suite.yaml")
        try """
        grpc: {proto: [users.proto]}
        tests:
          - name: trailer
            steps:
              - grpc: {url: \(server.grpcURL), method: acme.Users/GetUser, message: {id: "1"}}
                expect:
                  grpc: {trailers: {x-trace: t-2}}
          - name: header
            steps:
              - grpc: {url: \(server.grpcURL), method: acme.Users/GetUser, message: {id: "1"}}
                expect:
                  headers: {x-served-by: other}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.json")
        let result = try await runAPITest(["run", suite.path, "--report-json", report.path])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("trailer x-trace: expected \"t-2\", got \"t-1\""), "\(result.stdout)")
        #expect(!result.stdout.contains("header x-trace"), "\(result.stdout)")
        #expect(result.stdout.contains("header x-served-by: expected \"other\""), "\(result.stdout)")
        let json = try String(contentsOf: report, encoding: .utf8)
        #expect(json.contains("\"subject\" : \"trailer x-trace\""), "\(json)")
    }
}

import APITestResults
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestRunner

/// `GRPCCoverageRecorder`: the sources of a run's suites (`.proto` files, known from the start; servers read through
/// reflection, from their first schema), calls counted by method and status from many tasks at once.
@Suite("gRPC coverage recorder")
struct GRPCCoverageRecorderTests {
    static let proto = """
        syntax = "proto3";
        package demo;
        message Ping { string id = 1; }
        service Echo {
          rpc Say(Ping) returns (Ping);
          rpc Listen(Ping) returns (stream Ping);
          rpc Collect(stream Ping) returns (Ping);
          rpc Talk(stream Ping) returns (stream Ping);
        }
        """

    /// A folder holding `echo.proto` and the suites `a.yaml` and `b.yaml` naming it, loaded.
    static func suites() throws -> (folder: URL, suites: [Suite]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-cov-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try proto.write(to: folder.appendingPathComponent("echo.proto"), atomically: true, encoding: .utf8)
        var suites: [Suite] = []
        for name in ["a", "b"] {
            let yaml = """
                grpc: {proto: [echo.proto]}
                tests:
                  - name: say
                    steps:
                      - grpc: {url: "grpc://127.0.0.1:1", method: demo.Echo/Say, message: {id: x}}
                """
            suites.append(
                try SuiteLoader(environment: [:]).load(
                    source: yaml, file: folder.appendingPathComponent("\(name).yaml").path))
        }
        return (folder, suites)
    }

    @Test("every declared method is listed from the start; two suites naming one file share its source")
    func declaredFromTheStart() throws {
        let (folder, suites) = try Self.suites()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(GRPCCoverageRecorder.needed(for: suites))
        let recorder = GRPCCoverageRecorder(suites: suites)
        let coverage = try #require(recorder.coverage)
        #expect(coverage.sources.count == 1)
        #expect(coverage.sources[0].kind == .proto)
        #expect(coverage.sources[0].name.hasSuffix("echo.proto"))
        #expect(
            coverage.sources[0].methods.map { "\($0.name) \($0.streaming.rawValue)" } == [
                "demo.Echo/Collect client", "demo.Echo/Listen server", "demo.Echo/Say unary", "demo.Echo/Talk bidi",
            ])
        #expect(coverage.totals.methodsCalled == 0)
    }

    @Test("calls from many tasks are counted by method and status, against the suite's source")
    func countsConcurrently() async throws {
        let (folder, suites) = try Self.suites()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = GRPCCoverageRecorder(suites: suites)
        let method = try #require(suites[0].tests[0].steps[0].grpc?.resolved)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for call in 0..<100 {
                        let code = call % 10 == 0 ? 5 : (call == 1 ? 99 : 0)
                        recorder.record(method, code: code, suiteFile: suites[task % 2].file, server: nil)
                    }
                }
            }
        }
        let coverage = try #require(recorder.coverage)
        let say = try #require(coverage.sources[0].methods.first { $0.name == "demo.Echo/Say" })
        #expect(say.calls == 800)
        #expect(say.statuses == ["OK": 712, "NOT_FOUND": 80, "99": 8])
        #expect(coverage.totals.methodsCalled == 1)
    }

    @Test("a reflected server is a source from its first schema on, named host:port, without the reflection service")
    func reflectedSources() throws {
        let (folder, loaded) = try Self.suites()
        defer { try? FileManager.default.removeItem(at: folder) }
        var reflecting = loaded[0]
        let schema = try #require(reflecting.grpcSchema?.schema)
        reflecting.grpcSchema = nil
        reflecting.grpc = GRPCSchemaSetting(
            reflection: true, location: SourceLocation(file: reflecting.file, line: 1, column: 1))
        let recorder = GRPCCoverageRecorder(suites: [reflecting])
        #expect(recorder.coverage == nil)
        let method = try #require(loaded[0].tests[0].steps[0].grpc?.resolved)
        let server = GRPCCoverageRecorder.serverName(of: "http://127.0.0.1:50051/")
        #expect(server == "127.0.0.1:50051")
        // A call before the server's schema came is not counted (the step errors before calling then).
        recorder.record(method, code: 0, suiteFile: reflecting.file, server: server)
        recorder.register(reflected: schema, server: server)
        recorder.register(reflected: schema, server: server)
        recorder.record(method, code: 0, suiteFile: reflecting.file, server: server)
        recorder.record(method, code: 14, suiteFile: reflecting.file, server: "127.0.0.1:1")
        let coverage = try #require(recorder.coverage)
        #expect(coverage.sources.map(\.name) == ["127.0.0.1:50051"])
        #expect(coverage.sources[0].kind == .reflection)
        #expect(coverage.sources[0].methods.first { $0.name == "demo.Echo/Say" }?.statuses == ["OK": 1])
        #expect(GRPCCoverageRecorder.serverName(of: "https://api.example") == "api.example:443")
        #expect(GRPCCoverageRecorder.serverName(of: "http://[::1]:8080") == "[::1]:8080")
    }

    @Test("a run of suites without grpc steps needs no recorder")
    func notNeeded() throws {
        let suite = try SuiteLoader(environment: [:]).load(
            source: #"tests: [{name: t, request: {url: "http://h/x"}}]"#, file: "/r/s.yaml")
        #expect(!GRPCCoverageRecorder.needed(for: [suite]))
    }
}

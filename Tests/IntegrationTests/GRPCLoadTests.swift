import Foundation
import Testing

/// `apitest load` over `grpc:` steps against grpcio (`GRPCReflectionServer`, its services from the `.proto` files of
/// `Fixtures/grpc_reflection`): a load iteration is the runner's test, so a unary call is made, checked and timed
/// as in `run`, and the report has its rate and percentiles; a call to a server that is not there is counted as an
/// error.
@Suite struct GRPCLoadTests {
    @Test func aUnaryMethodUnderLoadHasItsRateAndPercentilesAndErrorsAreCounted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-grpc-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: GRPCReflectionServer.protos.appendingPathComponent("acme"), to: directory.appendingPathComponent("acme")
        )
        let server = try GRPCReflectionServer(mode: "none")
        defer { server.stop() }
        let suite = directory.appendingPathComponent("load.yaml")
        try """
        name: grpc load
        grpc: {proto: [acme/users/v1/users.proto]}
        tests:
          - name: get
            steps:
              - grpc:
                  url: grpc://127.0.0.1:\(server.port)
                  method: acme.users.v1.Users/GetUser
                  message: {id: u-7}
                expect:
                  json: {$.id: u-7}
          - name: down
            steps:
              - grpc:
                  url: grpc://127.0.0.1:\(try closedPort())
                  method: acme.users.v1.Users/GetUser
                  message: {id: u-8}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let json = directory.appendingPathComponent("load.json").path
        let result = try await runAPITest([
            "load", suite.path, "--rate", "20/s", "--duration", "2s", "--report-json", json,
        ])
        #expect(result.stdout.contains("load: open model, 20.0/s for 2.00 s"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("p99"), "\(result.stdout)")
        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let load = try #require(document["load"] as? [String: Any])
        let counts = try #require(load["counts"] as? [String: Int])
        #expect(counts["started"] == 40 && counts["completed"] == 40, "\(counts)")
        let tests = try #require(load["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["get", "down"])
        let get = try #require(tests.first?["counts"] as? [String: Int])
        let down = try #require(tests.last?["counts"] as? [String: Int])
        // Every call to the server passed its checks; every call to the closed port errored (UNAVAILABLE).
        #expect((get["completed"] ?? 0) > 0 && get["passed"] == get["completed"], "\(get)")
        #expect((down["completed"] ?? 0) > 0 && down["errored"] == down["completed"], "\(down)")
        #expect(counts["passed"] == get["completed"] && counts["errored"] == down["completed"], "\(counts)")
        let errors = try #require(tests.last?["errors"] as? [String: Int])
        #expect(errors.values.reduce(0, +) == down["completed"], "\(errors)")
        // The latency of every iteration, and of the unary call as a step.
        let latency = try #require(load["latency"] as? [String: Any])
        #expect((latency["counts"] as? [[Int]])?.reduce(0) { $0 + $1[1] } == 40, "\(latency)")
        let steps = try #require(tests.first?["steps"] as? [[String: Any]])
        let stepLatency = try #require(steps.first?["latency"] as? [String: Any])
        #expect(
            (stepLatency["counts"] as? [[Int]])?.reduce(0) { $0 + $1[1] } == get["completed"], "\(stepLatency)")
    }
}

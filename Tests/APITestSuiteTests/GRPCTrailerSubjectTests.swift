import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// A check of a gRPC call's trailers (`expect.grpc.trailers`) reads them with a header query, but is named
/// `trailer NAME` in messages (its ``QueryTarget``), where a response header check stays `header NAME`.
@Suite struct GRPCTrailerSubjectTests {
    @Test func aTrailerCheckIsNamedTrailerAndAHeaderCheckHeader() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try writeFile(
            """
            syntax = "proto3";
            package acme;
            message Ping { string id = 1; }
            service Echo { rpc Say(Ping) returns (Ping); }
            """, to: "echo.proto", in: directory)
        let suite = try loadSuite(
            """
            grpc: {proto: [echo.proto]}
            tests:
              - name: t
                steps:
                  - grpc: {url: "grpc://127.0.0.1:1", method: acme.Echo/Say, message: {id: x}}
                    expect:
                      headers: {x-served-by: step-server}
                      grpc: {trailers: {X-Trace: {equals: t-1}, x-count: {exists: true}}}
            """, file: directory + "/suite.yaml")
        let expect = try #require(suite.tests.first?.steps.first?.expect)
        let trailers = try #require(expect.grpc?.trailers)
        #expect(trailers.map(\.subject) == ["trailer x-trace", "trailer x-count"])
        #expect(trailers.map(\.query) == [.header("x-trace"), .header("x-count")])
        #expect(trailers.allSatisfy { $0.target == .grpcTrailers })
        #expect(expect.assertions.map(\.subject) == ["header x-served-by"])
        #expect(QueryTarget.response.name(of: .header("x-trace")) == "header x-trace")
        #expect(QueryTarget.grpcTrailers.name(of: .status) == "status")
    }
}

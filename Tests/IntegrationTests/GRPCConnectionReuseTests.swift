import APITestHTTP
import Foundation
import Testing

/// Plaintext (h2c) gRPC calls reuse their connections despite libcurl 7.88's prior-knowledge reuse bug (curl
/// #10634), one call at a time on a connection: against grpcio's server (`Fixtures/grpc_peer_server.py`, which
/// counts the client addresses of its calls, one a TCP connection), many calls of every kind (large messages among
/// them), one after another and many at once, all end as they should (status and trailers) on about as many
/// connections as calls in flight, where a connection per call was opened before.
@Suite(.serialized) final class GRPCConnectionReuseTests: Sendable {
    let server: AnnouncedPortProcess
    let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(120)))
    let peer: GRPCPeerCalls

    init() throws {
        server = try AnnouncedPortProcess(
            python: [FaultServer.scriptURL("grpc_peer_server.py").path],
            what: "the grpcio peer-counting server (grpcio)")
        peer = GRPCPeerCalls(
            session: session, baseURL: "http://127.0.0.1:\(server.port)", security: nil, resolve: [])
    }

    deinit {
        session.shutdown()
        server.stop()
    }

    @Test func callsOneAfterAnotherShareOneConnection() async throws {
        for index in 0..<40 {
            let problem = try await peer.mixedCall(index)
            #expect(problem == nil)
        }
        let served = try await peer.served()
        // Every call reached the server but perhaps a deadline's (the 5 calls cut at 200 ms may end before grpcio
        // starts their handler on a loaded machine).
        #expect((35...40).contains(served.calls))
        // One connection carried them all (the old transport opened 40), but for the 10 trailers-only answers
        // (Fail and TrailersOnly): libcurl closes a connection after one (libcurl 7.88 can fail the next request on
        // it, see H2CTransfer.answeredWithoutBody), so the next call opens another; and libcurl may close the
        // connection of a call cut by its deadline (1 of the 5 in a CI run on loaded cores: 12 connections).
        let trailersOnly = (0..<40).filter { [5, 6].contains($0 % 8) }.count
        let deadlines = (0..<40).filter { $0 % 8 == 7 }.count
        #expect((1 + trailersOnly...1 + trailersOnly + deadlines).contains(served.connections))
    }

    @Test func manyCallsAtOnceOfEveryKindShareAFewConnections() async throws {
        let count = 480
        let problems = try await withThrowingTaskGroup(of: String?.self) { group in
            var next = 0
            var problems: [String] = []
            // 40 calls in flight at a time.
            while next < min(40, count) {
                let index = next
                group.addTask { try await self.peer.mixedCall(index) }
                next += 1
            }
            while let problem = try await group.next() {
                if let problem { problems.append(problem) }
                if next < count {
                    let index = next
                    group.addTask { try await self.peer.mixedCall(index) }
                    next += 1
                }
            }
            return problems
        }
        #expect(problems.isEmpty)
        let served = try await peer.served()
        // Every call but perhaps some of the 60 cut by their deadline before grpcio started their handler.
        #expect((count - count / 8...count).contains(served.calls))
        // A connection carries one call at a time (libcurl 7.88 loses a stream's trailers when another stream on
        // the connection fills its buffer): about as many connections as calls in flight (40, and a few more
        // where a call found no idle one: 40 or 41 in six runs, four of them beside six busy loops), and one more
        // after each of the 120 trailers-only answers, whose connection libcurl closes (152 here), where the old
        // transport opened one per call (480).
        let trailersOnly = (0..<count).filter { [5, 6].contains($0 % 8) }.count
        #expect(served.connections <= 60 + trailersOnly, "\(served.connections) connections for \(count) calls")
    }

    @Test func anUnknownMethodsAnswerThenAnAnsweredCall() async throws {
        // grpcio answers UNIMPLEMENTED to an unknown method before it reads the request, then the next calls.
        for round in 0..<6 {
            let (failed, _) = try await peer.call("NoSuchMethod", [Data("x".utf8), Data("y".utf8)])
            #expect(
                failed.failure == nil && failed.isTrailersOnly && failed.status.code == .unimplemented,
                "\(round): \(failed.status) \(String(describing: failed.failure))")
            let payload = Data("after \(round)".utf8)
            let (answered, messages) = try await peer.call("Unary", [payload])
            #expect(answered.failure == nil && answered.status.isOK && messages == [payload], "\(round): \(answered)")
        }
    }
}

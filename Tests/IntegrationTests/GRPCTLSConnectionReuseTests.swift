import APITestHTTP
import APITestSecurity
import Foundation
import Testing

/// gRPC calls over TLS (HTTP/2 by ALPN) one after another on grpcio's server (`Fixtures/grpc_peer_server.py` with a
/// test certificate): every call ends as it should on one reused connection, trailers-only answers (grpcio's error
/// before any message, one HEADERS frame that ends the stream) among them, and a call the server answers before it
/// has read the request (an unknown method's UNIMPLEMENTED), which libcurl 7.88 failed on a reused connection with
/// "Stream error in the HTTP/2 framing layer" (`SessionManager.answerWasLostBeforeTheRequestWasSent`).
@Suite(.serialized) final class GRPCTLSConnectionReuseTests: Sendable {
    let certificate: GRPCTestCertificate
    let server: AnnouncedPortProcess
    let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(120)))
    let peer: GRPCPeerCalls

    init() async throws {
        certificate = try await GRPCTestCertificate.make()
        server = try AnnouncedPortProcess(
            python: [
                FaultServer.scriptURL("grpc_peer_server.py").path, "--cert", certificate.certificatePath, "--key",
                certificate.keyPath,
            ],
            what: "the grpcio peer-counting server (grpcio) with TLS")
        let policy = try SecurityPolicy(SecuritySettings(caFile: certificate.certificatePath))
        peer = GRPCPeerCalls(
            session: session, baseURL: "https://localhost:\(server.port)", security: policy,
            resolve: ["localhost:\(server.port):127.0.0.1"])
    }

    deinit {
        session.shutdown()
        server.stop()
        certificate.remove()
    }

    @Test func callsOneAfterAnotherEndAsTheyShouldAfterTrailersOnlyAnswers() async throws {
        for index in 0..<40 {
            let problem = try await peer.mixedCall(index)
            #expect(problem == nil)
        }
        let served = try await peer.served()
        // Every call reached the server but perhaps a deadline's (cut at 200 ms before grpcio started its handler).
        #expect((35...40).contains(served.calls))
        // One connection (over TLS a trailers-only answer leaves it open), perhaps one more after a call cut by its
        // deadline.
        let deadlines = (0..<40).filter { $0 % 8 == 7 }.count
        #expect((1...1 + deadlines).contains(served.connections), "\(served.connections) connections for 40 calls")
    }

    @Test func anUnknownMethodsAnswerThenAnAnsweredCall() async throws {
        // grpcio answers UNIMPLEMENTED to an unknown method in one HEADERS frame before it reads the request (as
        // a server without reflection answers apitest's reflection call); then the next call on the same origin.
        for round in 0..<6 {
            let (failed, _) = try await peer.call("NoSuchMethod", [Data("x".utf8), Data("y".utf8)])
            #expect(
                failed.failure == nil && failed.isTrailersOnly && failed.status.code == .unimplemented,
                "\(round): \(failed.status) \(String(describing: failed.failure))")
            let (trailersOnly, _) = try await peer.call("TrailersOnly", [Data()])
            #expect(trailersOnly.failure == nil && trailersOnly.status.code == .notFound, "\(round)")
            let payload = Data("after \(round)".utf8)
            let (answered, messages) = try await peer.call("Unary", [payload])
            #expect(answered.failure == nil && answered.status.isOK && messages == [payload], "\(round): \(answered)")
        }
    }
}

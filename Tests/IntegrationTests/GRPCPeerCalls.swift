import APITestHTTP
import Foundation
import Synchronization
import Testing

/// Calls to `Fixtures/grpc_peer_server.py` (grpcio's server with grpc_test_server.py's `test.Echo` methods, counting
/// the client addresses of its calls, one a TCP connection) through one session, plaintext or TLS: the connection
/// reuse tests' client (GRPCConnectionReuseTests, GRPCTLSConnectionReuseTests).
struct GRPCPeerCalls: Sendable {
    /// The session every call goes through.
    let session: SessionManager
    /// `http://127.0.0.1:PORT`, or `https://localhost:PORT` for a server with a certificate.
    let baseURL: String
    /// The TLS policy trusting the server's test certificate; nil for plaintext.
    let security: SecurityPolicy?
    /// The resolve entries (`localhost` to 127.0.0.1 for TLS).
    let resolve: [String]

    /// Calls `method` of `/test.Echo/` with `messages`, collecting the messages it answers with.
    func call(
        _ method: String, _ messages: [Data], deadline: Duration? = nil
    ) async throws -> (
        GRPCCallResult, [Data]
    ) {
        let received = Mutex<[Data]>([])
        let result = try await session.performGRPC(
            GRPCCallDescription(
                baseURL: baseURL, path: "/test.Echo/\(method)", messages: messages, deadline: deadline,
                security: security, resolve: resolve),
            onMessage: { message in
                received.withLock { $0.append(message) }
                return true
            })
        return (result, received.withLock { $0 })
    }

    /// The server's count of the calls it answered (other than this one) and of their distinct client addresses.
    func served() async throws -> (calls: Int, connections: Int) {
        let (result, messages) = try await call("Peers", [Data()])
        #expect(result.status.isOK)
        let fields = String(decoding: messages.first ?? Data(), as: UTF8.self).split(separator: ",")
        let numbers = fields.compactMap { Int($0) }
        try #require(numbers.count == 2, "Peers answered \(fields)")
        return (numbers[0], numbers[1])
    }

    /// Call number `index` of a mixed run: each kind of call with what it must end with.
    func mixedCall(_ index: Int) async throws -> String? {
        switch index % 8 {
        case 0, 1:
            let payload = Data("unary \(index)".utf8)
            let (result, messages) = try await call("Unary", [payload])
            return result.status.isOK && messages == [payload] ? nil : "unary \(index): \(result.status) \(messages)"
        case 2:
            let (result, messages) = try await call("ServerStream", [Data("3,1,70000,5".utf8)])
            let sizes = messages.map(\.count)
            return result.status.isOK && sizes == [1, 70_000, 5] ? nil : "stream \(index): \(result.status) \(sizes)"
        case 3:
            let (result, messages) = try await call("ClientStream", [Data("ab".utf8), Data("cde".utf8), Data()])
            let answer = messages.first.map { String(decoding: $0, as: UTF8.self) }
            return result.status.isOK && answer == "5,3"
                ? nil : "client stream \(index): \(result.status) \(answer ?? "-")"
        case 4:
            let sent = [Data("x".utf8), Data("yy".utf8)]
            let (result, messages) = try await call("Bidi", sent)
            return result.status.isOK && messages == sent ? nil : "bidi \(index): \(result.status) \(messages)"
        case 5:
            let (result, _) = try await call("Fail", [Data("x".utf8)])
            let expected =
                result.failure == nil && result.status.code == .invalidArgument
                && result.status.details == Data([0, 1]) + Data("details".utf8) + Data([0xFF])
                && result.trailingMetadata.values(for: "x-fail") == [.text("yes")]
            return expected ? nil : "fail \(index): \(result.status) \(String(describing: result.failure))"
        case 6:
            let (result, _) = try await call("TrailersOnly", [Data()])
            let expected = result.failure == nil && result.isTrailersOnly && result.status.code == .notFound
            return expected ? nil : "trailers-only \(index): \(result.status) \(String(describing: result.failure))"
        default:
            // A deadline that cuts the call (the server sleeps 30 s): its stream is reset, its connection kept.
            let (result, messages) = try await call("Sleep", [Data("z".utf8)], deadline: .milliseconds(200))
            let expected =
                messages.isEmpty && result.failure == GRPCError(.deadlineExceeded(deadline: .milliseconds(200)))
            return expected ? nil : "deadline \(index): \(result.status) \(String(describing: result.failure))"
        }
    }
}

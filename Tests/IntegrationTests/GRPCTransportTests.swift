import APITestHTTP
import APITestSecurity
import APITestSupport
import Foundation
import Synchronization
import Testing

/// The gRPC transport against grpcio's own server (`GRPCTestServer`), generic handlers with bytes in and out: unary,
/// server-, client- and bidirectional streaming, statuses with details and trailing metadata, trailers-only
/// responses, deadlines, cancellation, and TLS with pins.
@Suite(.serialized) final class GRPCTransportTests {
    let server: GRPCTestServer
    let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(60)))

    init() throws {
        server = try GRPCTestServer()
    }

    deinit {
        session.shutdown()
        server.stop()
    }

    func call(
        _ method: String, _ messages: [Data], metadata: GRPCMetadata = GRPCMetadata(), deadline: Duration? = nil,
        limit: Int = GRPCCallDescription.defaultMaxResponseMessageSize
    ) async throws -> (GRPCCallResult, [Data]) {
        let received = Mutex<[Data]>([])
        let result = try await session.performGRPC(
            GRPCCallDescription(
                baseURL: server.plainURL, path: "/test.Echo/\(method)", messages: messages, metadata: metadata,
                deadline: deadline, maxResponseMessageSize: limit, recordsSentHeaders: true),
            onMessage: { message in
                received.withLock { $0.append(message) }
                return true
            })
        return (result, received.withLock { $0 })
    }

    /// The message the server streams as number `index` of `size` bytes.
    static func streamed(_ index: Int, size: Int) -> Data {
        Data((0..<size).map { UInt8((index + $0) % 251) })
    }

    @Test func aUnaryCallEchoesItsMessageOverH2CWithMetadataAndTrailersApart() async throws {
        var metadata = GRPCMetadata()
        metadata.add("x-echo", .text("hello there"))
        metadata.add("X-Echo-Bin", .binary(Data([0, 1, 2, 0xFF])))
        metadata.add("x-trailer", .text("at the end"))
        let (result, messages) = try await call("Unary", [Data("ping".utf8)], metadata: metadata)
        #expect(result.failure == nil)
        #expect(result.status == GRPCStatus(.ok))
        #expect(messages == [Data("ping".utf8)])
        #expect(result.messageCount == 1)
        #expect(result.response?.httpVersion == "HTTP/2")
        #expect(result.headers["content-type"] == "application/grpc")
        #expect(result.initialMetadata.values(for: "x-echo") == [.text("hello there")])
        #expect(result.initialMetadata.values(for: "x-echo-bin") == [.binary(Data([0, 1, 2, 0xFF]))])
        // Trailers are kept apart from the headers.
        #expect(result.headers["grpc-status"] == nil)
        #expect(result.headers["x-trailer"] == nil)
        #expect(result.trailers["grpc-status"] == "0")
        #expect(result.trailingMetadata.values(for: "x-trailer") == [.text("at the end")])
        #expect(!result.isTrailersOnly)
        let sent = try #require(result.response?.sentHeaders)
        #expect(sent["content-type"] == "application/grpc")
        #expect(sent["te"] == "trailers")
        #expect(sent["grpc-timeout"] == nil)
    }

    @Test func aServerStreamHandsOverEveryMessageLargeAndEmptyInOrder() async throws {
        let sizes = [0, 5, 3_000_000, 0, 70_000, 1, 16_389]
        let request = Data(([String(sizes.count)] + sizes.map(String.init)).joined(separator: ",").utf8)
        let call = try session.startGRPC(
            GRPCCallDescription(baseURL: server.plainURL, path: "/test.Echo/ServerStream", messages: [request]))
        var messages: [Data] = []
        for await message in call.messages { messages.append(message) }
        let result = try await call.result()
        #expect(result.status.isOK)
        #expect(result.failure == nil)
        #expect(messages.map(\.count) == sizes)
        for (index, size) in sizes.enumerated() where messages.count == sizes.count {
            #expect(messages[index] == Self.streamed(index, size: size), "message \(index)")
        }
        #expect(result.messageCount == sizes.count)
    }

    @Test func aMessageAboveTheLimitEndsTheCallWithResourceExhausted() async throws {
        let (result, messages) = try await call("ServerStream", [Data("2,10,5000".utf8)], limit: 1000)
        #expect(messages == [Self.streamed(0, size: 10)])
        #expect(result.failure == GRPCError(.messageTooLarge(length: 5000, limit: 1000)))
        #expect(result.status.code == .resourceExhausted)
    }

    @Test func aClientStreamSendsEveryMessage() async throws {
        let messages = [Data("abc".utf8), Data(), Data(count: 100_000), Data("seven!!".utf8)]
        let (result, received) = try await call("ClientStream", messages)
        #expect(result.status.isOK)
        #expect(received == [Data("100010,4".utf8)])
        let (empty, none) = try await call("ClientStream", [])
        #expect(empty.status.isOK)
        #expect(none == [Data("0,0".utf8)])
    }

    @Test func callsInARowOnOneSessionEachSucceed() async throws {
        for index in 0..<5 {
            let (result, messages) = try await call("Unary", [Data("call \(index)".utf8)])
            #expect(result.status.isOK, "call \(index): \(result.status)")
            #expect(messages == [Data("call \(index)".utf8)])
        }
    }

    @Test func connectToAndAuthorityApplyAsForAnyRequest() async throws {
        // A name that resolves nowhere, reached through a connect-to entry: the transport's own options apply.
        let result = try await session.performGRPC(
            GRPCCallDescription(
                baseURL: "http://grpc.invalid:\(server.port)", path: "/test.Echo/Metadata", messages: [Data()],
                authority: "service.example:443",
                transport: TransportOptions(
                    connectTo: ["grpc.invalid:\(server.port):127.0.0.1:\(server.port)"]),
                recordsSentHeaders: true))
        #expect(result.failure == nil)
        #expect(result.status.isOK)
        #expect(result.response?.sentHeaders?["host"] == "service.example:443")
    }

    @Test func aBidirectionalCallEchoesEachMessage() async throws {
        let messages = (0..<20).map { Self.streamed($0, size: $0 * 997) }
        let (result, received) = try await call("Bidi", messages)
        #expect(result.status.isOK)
        #expect(received == messages)
    }

    @Test func aFailingCallCarriesItsStatusMessageDetailsAndTrailingMetadata() async throws {
        let (result, messages) = try await call("Fail", [Data("x".utf8)])
        #expect(messages.isEmpty)
        #expect(result.failure == nil)
        #expect(result.status.code == .invalidArgument)
        #expect(result.status.rawCode == 3)
        #expect(result.status.message == "bad 100% \u{FC}n\u{EF}code")
        #expect(result.status.details == Data([0, 1]) + Data("details".utf8) + Data([0xFF]))
        #expect(result.trailingMetadata.values(for: "x-fail") == [.text("yes")])
    }

    @Test func aTrailersOnlyResponseCarriesTheStatusInItsHeaders() async throws {
        let (result, messages) = try await call("TrailersOnly", [Data()])
        #expect(messages.isEmpty)
        #expect(result.failure == nil)
        #expect(result.isTrailersOnly)
        #expect(result.trailers.isEmpty)
        #expect(result.status == GRPCStatus(.notFound, message: "no such thing"))
    }

    @Test func theDeadlineIsSentAsGRPCTimeout() async throws {
        let (result, messages) = try await call("Metadata", [Data()], deadline: .seconds(90))
        #expect(result.status.isOK)
        #expect(result.response?.sentHeaders?["grpc-timeout"] == "90S")
        let lines = String(decoding: messages.first ?? Data(), as: UTF8.self).split(separator: "\n")
        #expect(lines.contains("deadline=yes"))
    }

    @Test func aServerThatDoesNotAnswerEndsAtTheDeadlineWithDeadlineExceeded() async throws {
        let (result, messages) = try await call("Sleep", [Data("z".utf8)], deadline: .milliseconds(300))
        #expect(messages.isEmpty)
        #expect(result.failure == GRPCError(.deadlineExceeded(deadline: .milliseconds(300))))
        #expect(result.status.code == .deadlineExceeded)
    }

    @Test func cancellingTheCallCancelsTheTransfer() async throws {
        let call = try session.startGRPC(
            GRPCCallDescription(baseURL: server.plainURL, path: "/test.Echo/Sleep", messages: [Data()]))
        let waiter = Task { try await call.result() }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        // The session still works.
        let (result, _) = try await self.call("Unary", [Data("after".utf8)])
        #expect(result.status.isOK)
    }

    @Test func anUnknownMethodIsUnimplemented() async throws {
        let (result, _) = try await call("NoSuchMethod", [Data()])
        #expect(result.status.code == .unimplemented)
        #expect(result.failure == nil)
    }

    @Test func badMetadataIsRefusedBeforeAnythingIsSent() async throws {
        var metadata = GRPCMetadata()
        metadata.add("grpc-status", .text("0"))
        await #expect(throws: GRPCError(.invalidMetadata(key: "grpc-status", problem: .reservedKey))) {
            _ = try await self.call("Unary", [Data()], metadata: metadata)
        }
        var text = GRPCMetadata()
        text.add("x-line", .text("a\nb"))
        await #expect(throws: GRPCError(.invalidMetadata(key: "x-line", problem: .nonPrintableText))) {
            _ = try await self.call("Unary", [Data()], metadata: text)
        }
    }

    @Test func aRefusedConnectionIsUnavailable() async throws {
        let port = try closedPort()
        let result = try await session.performGRPC(
            GRPCCallDescription(baseURL: "http://127.0.0.1:\(port)", path: "/test.Echo/Unary", messages: [Data()]))
        guard case .transport(let error) = result.failure?.kind else {
            Issue.record("expected a transport failure, got \(String(describing: result.failure))")
            return
        }
        #expect(error.reason == .connectionRefused)
        #expect(result.status.code == .unavailable)
    }
}

/// gRPC over TLS (ALPN h2) with the session's security policy: a pin that matches and one that does not.
@Suite(.serialized) final class GRPCTLSTransportTests {
    let certificate: GRPCTestCertificate
    let server: GRPCTestServer
    let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(60)))

    init() async throws {
        certificate = try await GRPCTestCertificate.make()
        server = try GRPCTestServer(certificate: certificate)
    }

    deinit {
        session.shutdown()
        server.stop()
        certificate.remove()
    }

    func call(pins: [String]) async throws -> GRPCCallResult {
        let policy = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: try pins.map { try PublicKeyPin($0) }, caFile: certificate.certificatePath))
        return try await session.performGRPC(
            GRPCCallDescription(
                baseURL: server.tlsURL, path: "/test.Echo/Unary", messages: [Data("secure".utf8)], security: policy,
                resolve: ["localhost:\(server.port):127.0.0.1"]),
            onMessage: { message in message == Data("secure".utf8) })
    }

    @Test func aMatchingPinLetsTheCallThroughOverHTTP2() async throws {
        let result = try await call(pins: [certificate.pin])
        #expect(result.failure == nil)
        #expect(result.status.isOK)
        #expect(result.messageCount == 1)
        #expect(result.response?.httpVersion == "HTTP/2")
        #expect(result.response?.tlsEvaluation?.matchedPin == certificate.pin)
        // A second call goes over the same checked connection.
        let again = try await call(pins: [certificate.pin])
        #expect(again.status.isOK)
        #expect(again.messageCount == 1)
    }

    @Test func aPinThatDoesNotMatchStopsTheCall() async throws {
        let result = try await call(pins: ["sha256//" + Data(repeating: 7, count: 32).base64EncodedString()])
        #expect(result.messageCount == 0)
        #expect(result.status.code == .unavailable)
        guard case .transport(let error) = result.failure?.kind else {
            Issue.record("expected a transport failure, got \(String(describing: result.failure))")
            return
        }
        #expect(error.reason == .pinMismatch)
    }
}

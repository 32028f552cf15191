import Foundation
import Testing

@testable import APITestHTTP

/// The transport options through the session manager against nginx: connect-to, a unix socket, HTTP versions, a
/// proxy and its exceptions. nginx answers `protocol|host|request line`, so each test sees what arrived.
@Suite(.serialized) final class TransportOptionsTests {
    let server: TransportServer
    let session = SessionManager()

    init() throws {
        server = try TransportServer()
    }

    deinit {
        session.shutdown()
        server.stop()
    }

    /// What nginx saw: protocol, host and request line.
    private func answer(_ request: HTTPRequest) async throws -> [String] {
        let response = try await session.perform(request)
        #expect(response.statusCode == 200)
        return String(decoding: response.body, as: UTF8.self).split(separator: "|").map(String.init)
    }

    @Test func connectToReachesAnotherAddressUnderTheURLsHostName() async throws {
        var request = HTTPRequest(url: "http://api.example.test/items?x=1")
        request.transport.connectTo = ["api.example.test:80:127.0.0.1:\(server.port)"]
        #expect(try await answer(request) == ["HTTP/1.1", "api.example.test", "GET /items?x=1 HTTP/1.1"])
    }

    @Test func aUnixSocketCarriesTheRequest() async throws {
        var request = HTTPRequest(url: "http://api.example.test/over-the-socket")
        request.transport.unixSocketPath = server.socketPath
        #expect(try await answer(request) == ["HTTP/1.1", "api.example.test", "GET /over-the-socket HTTP/1.1"])
    }

    @Test func http2WithPriorKnowledgeSpeaksH2cAndHTTP11StaysOnHTTP11() async throws {
        var request = HTTPRequest(url: "http://127.0.0.1:\(server.h2cPort)/h2")
        request.transport.httpVersion = .http2PriorKnowledge
        let response = try await session.perform(request)
        #expect(response.httpVersion == "HTTP/2")
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("HTTP/2.0|"))

        var plain = HTTPRequest(url: "http://127.0.0.1:\(server.port)/h1")
        plain.transport.httpVersion = .http11
        #expect(try await answer(plain).first == "HTTP/1.1")
    }

    @Test func aProxyGetsTheAbsoluteURLUnlessTheHostIsExcepted() async throws {
        var request = HTTPRequest(url: "http://api.example.test/via-proxy")
        request.transport.proxy = "http://127.0.0.1:\(server.port)"
        #expect(try await answer(request)[2] == "GET http://api.example.test/via-proxy HTTP/1.1")

        // Excepted: sent straight to the URL's host (here the server itself), in origin form.
        var direct = HTTPRequest(url: "http://127.0.0.1:\(server.port)/direct")
        direct.transport.proxy = "http://127.0.0.1:9" // nothing listens there: used, it would fail
        direct.transport.noProxy = "127.0.0.1"
        #expect(try await answer(direct)[2] == "GET /direct HTTP/1.1")
    }
}

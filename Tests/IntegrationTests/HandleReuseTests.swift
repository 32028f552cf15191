import APITestHTTP
import Foundation
import Testing

/// A pooled easy handle keeps its options from one plain GET to the next instead of being reset
/// (`CurlMultiLoop+HandleReuse.swift`, issue 38): no option of one transfer may reach the next. One connection, so
/// every transfer below runs on the same handle, in turn plain and not.
@Suite(.serialized) final class HandleReuseTests {
    let demo: DemoServer
    let session = SessionManager(configuration: SessionConfiguration(maxConnections: 1))

    init() async throws {
        demo = try await DemoServer.start()
    }

    deinit {
        session.shutdown()
        demo.stop()
    }

    /// A plain GET: no body, no `Accept-Encoding` list, no other option.
    func plain(_ path: String, headers: HTTPHeaders = [:], jar: CookieJar? = nil) -> HTTPRequest {
        HTTPRequest(url: demo.baseURL + path, headers: headers, acceptEncoding: nil, cookieJar: jar)
    }

    /// What /echo saw: method, path, body size and the header names (lower-cased) with their values.
    func echo(
        _ request: HTTPRequest
    ) async throws -> (method: String, path: String, size: Int, headers: [String: String]) {
        let response = try await session.perform(request)
        #expect(response.statusCode == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let pairs = (object["headers"] as? [[String]]) ?? []
        var headers: [String: String] = [:]
        for pair in pairs where pair.count == 2 { headers[pair[0].lowercased()] = pair[1] }
        return (
            object["method"] as? String ?? "", object["path"] as? String ?? "", object["bodySize"] as? Int ?? -1,
            headers
        )
    }

    @Test func theMethodBodyAndHeadersOfOneTransferDoNotReachTheNext() async throws {
        let first = try await echo(plain("/echo/1", headers: ["X-First": "one"]))
        #expect(first.method == "GET" && first.path == "/echo/1" && first.headers["x-first"] == "one")
        // Plain after plain: the handle kept its options, the new URL and header list replace the old.
        let second = try await echo(plain("/echo/2"))
        #expect(second.method == "GET" && second.path == "/echo/2" && second.headers["x-first"] == nil)

        var post = HTTPRequest(method: "POST", url: demo.baseURL + "/echo/3", body: .data(Data("payload".utf8)))
        post.acceptEncoding = nil
        let posted = try await echo(post)
        #expect(posted.method == "POST" && posted.size == 7)
        let after = try await echo(plain("/echo/4"))
        #expect(after.method == "GET" && after.size == 0)
        #expect(after.headers["content-type"] == nil && after.headers["content-length"] == nil)

        let head = try await session.perform(
            HTTPRequest(method: "HEAD", url: demo.baseURL + "/echo/5", acceptEncoding: nil))
        #expect(head.statusCode == 200 && head.body.isEmpty)
        let afterHead = try await echo(plain("/echo/6"))
        #expect(afterHead.method == "GET" && afterHead.path == "/echo/6")

        let compressed = try await echo(HTTPRequest(url: demo.baseURL + "/echo/7", acceptEncoding: ""))
        #expect(compressed.headers["accept-encoding"] != nil)
        let afterCompressed = try await echo(plain("/echo/8"))
        #expect(afterCompressed.headers["accept-encoding"] == nil)
        let compressedAgain = try await echo(HTTPRequest(url: demo.baseURL + "/echo/9", acceptEncoding: ""))
        #expect(compressedAgain.headers["accept-encoding"] != nil)
    }

    @Test func redirectsAndTimeoutsAreEachTransfersOwn() async throws {
        var stay = plain("/redirect/1")
        stay.followRedirects = false
        #expect(try await session.perform(stay).statusCode == 302)
        #expect(try await session.perform(plain("/redirect/1")).statusCode == 200)
        #expect(try await session.perform(stay).statusCode == 302)

        var short = plain("/delay/3000")
        short.timeout = .milliseconds(100)
        await #expect(throws: HTTPError.self) { try await self.session.perform(short) }
        // The next plain transfer has the session's timeout again, not 100 ms.
        #expect(try await session.perform(plain("/delay/300")).statusCode == 200)
    }

    @Test func aJarsCookiesGoOnlyWithItsOwnTransfers() async throws {
        let jar = CookieJar()
        _ = try await session.perform(plain("/cookies/set?flavour=oat", jar: jar))
        let withoutJar = try await echo(plain("/echo/9"))
        #expect(withoutJar.headers["cookie"] == nil)
        let withJar = try await echo(plain("/echo/10", jar: jar))
        #expect(withJar.headers["cookie"]?.contains("flavour=oat") == true)
        let afterJar = try await echo(plain("/echo/11"))
        #expect(afterJar.headers["cookie"] == nil)
    }

    @Test func aProxyOfOneTransferIsNotTheNexts() async throws {
        var proxied = plain("/echo/12")
        // Nothing listens on port 9 (discard): the transfer fails reaching the proxy.
        var transport = TransportOptions()
        transport.proxy = "http://127.0.0.1:9"
        proxied.transport = transport
        await #expect(throws: HTTPError.self) { try await self.session.perform(proxied) }
        let direct = try await echo(plain("/echo/13"))
        #expect(direct.path == "/echo/13")
    }
}

import APITestHTTP
import APITestJSON
import APITestSupport
import Foundation
import Testing

/// The libcurl session manager against real servers on 127.0.0.1: the demo API and a misbehaving Python server.
@Suite(.serialized) final class SessionManagerTests {
    let demo: DemoServer
    let faults: FaultServer
    let session = SessionManager(configuration: SessionConfiguration(maxConnections: 20, timeout: .seconds(10)))

    init() async throws {
        demo = try await DemoServer.start()
        faults = try FaultServer()
    }

    deinit {
        session.shutdown()
        demo.stop()
        faults.stop()
    }

    private func json(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }

    /// The cookies a `/cookies` answer lists, by name.
    private func cookies(_ answer: JSONValue) -> [String: String] {
        var found: [String: String] = [:]
        for (name, value) in answer["cookies"]?.objectValue ?? JSONObject() { found[name] = value.stringValue }
        return found
    }

    private func failure(of request: HTTPRequest, in session: SessionManager? = nil) async -> HTTPError? {
        do {
            _ = try await (session ?? self.session).perform(request)
            return nil
        } catch let error as HTTPError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: - Responses

    @Test func collectsStatusHeadersBodyAndTransferFacts() async throws {
        let response = try await session.perform(HTTPRequest(url: demo.baseURL + "/json"))
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.mediaType == "application/json")
        #expect(response.effectiveURL == demo.baseURL + "/json")
        #expect(response.remoteAddress == "127.0.0.1:\(demo.port)")
        #expect(response.redirectCount == 0)
        let document = try json(response)
        #expect(document["slideshow"]?["author"] == "Yours Truly")
        let t = response.timings
        #expect(t.total > .zero)
        #expect(t.connect <= t.firstByte && t.firstByte <= t.total)
    }

    @Test func keepsRepeatedHeadersInOrder() async throws {
        let response = try await session.perform(HTTPRequest(url: faults.baseURL + "/repeat"))
        #expect(response.headers.values(for: "x-repeat") == ["1", "2", "3"])
        #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        let names = response.headers.map(\.name).filter { $0.hasPrefix("X-") || $0 == "Set-Cookie" }
        #expect(names == ["X-Repeat", "Set-Cookie", "X-Repeat", "Set-Cookie", "X-Repeat"])
    }

    @Test func interimResponsesDoNotLeakIntoTheFinalHeaders() async throws {
        let response = try await session.perform(HTTPRequest(url: faults.baseURL + "/interim"))
        #expect(response.statusCode == 200)
        #expect(response.headers["X-Final"] == "yes")
        #expect(response.headers["X-Interim"] == nil)
        #expect(response.reasonPhrase == "OK")
    }

    @Test func foldedHeaderLinesAreJoined() async throws {
        let response = try await session.perform(HTTPRequest(url: faults.baseURL + "/folded"))
        #expect(response.headers["X-Folded"] == "first second")
    }

    @Test func sendsHeadersInOrderWithRepeatsAndNoInventedContentType() async throws {
        var request = HTTPRequest(method: "POST", url: demo.baseURL + "/echo", body: .data(Data("raw".utf8)))
        request.headers = HTTPHeaders([("X-B", "1"), ("X-A", "2"), ("X-B", "3")])
        let echo = try json(try await session.perform(request))
        let sent = echo["headers"]?.arrayValue?.compactMap { pair -> String? in
            guard let name = pair.arrayValue?.first?.stringValue, name.hasPrefix("X-") || name.hasPrefix("x-") else {
                return nil
            }
            return "\(name)=\(pair.arrayValue?.last?.stringValue ?? "")"
        }
        #expect(sent?.map { $0.lowercased() } == ["x-b=1", "x-a=2", "x-b=3"])
        let names = echo["headers"]?.arrayValue?.compactMap { $0.arrayValue?.first?.stringValue?.lowercased() } ?? []
        #expect(!names.contains("content-type"), "libcurl's default form content type must not be sent")
        #expect(!names.contains("expect"))
        #expect(echo["body"] == "raw")
    }

    @Test func headRequestsHaveNoBody() async throws {
        let response = try await session.perform(HTTPRequest(method: "HEAD", url: demo.baseURL + "/json"))
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE", "OPTIONS"])
    func customMethodsWithAndWithoutBody(method: String) async throws {
        let withBody = try json(
            try await session.perform(
                HTTPRequest(method: method, url: demo.baseURL + "/echo", body: .data(Data("x=1".utf8)))))
        #expect(withBody["method"] == .string(method))
        #expect(withBody["bodySize"] == 3)
        let without = try json(try await session.perform(HTTPRequest(method: method, url: demo.baseURL + "/echo")))
        #expect(without["method"] == .string(method))
        #expect(without["bodySize"] == 0)
    }

    // MARK: - Bodies

    @Test func streamsAFileBodyFromDisk() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: file)
        let request = HTTPRequest(method: "POST", url: demo.baseURL + "/echo", body: .file(path: file.path))
        let response = try await session.perform(request)
        let echo = try json(response)
        #expect(echo["bodySize"] == 300_000)
        #expect(response.bytesUploaded == 300_000)
    }

    @Test func aMissingBodyFileIsAClearError() async throws {
        let error = await failure(
            of: HTTPRequest(method: "POST", url: demo.baseURL + "/echo", body: .file(path: "/nonexistent/x")))
        #expect(error?.reason == .bodyFileUnreadable)
        #expect(error?.message.contains("/nonexistent/x") == true)
    }

    @Test func bodiesPastTheLimitFailClearly() async throws {
        var request = HTTPRequest(url: demo.baseURL + "/bytes/100000")
        request.maxBodySize = 1000
        let error = await failure(of: request)
        #expect(error?.reason == .bodyTooLarge)
        #expect(error?.message == "the response body is larger than the limit of 1000 bytes")
        request.maxBodySize = 100_000
        #expect(try await session.perform(request).body.count == 100_000)
    }

    @Test func gzipIsDecodedWhenOfferedAndLeftAloneWhenNot() async throws {
        let decoded = try await session.perform(HTTPRequest(url: demo.baseURL + "/gzip"))
        #expect(decoded.headers["Content-Encoding"] == "gzip")
        #expect(try json(decoded)["gzipped"] == true)
        let raw = try await session.perform(HTTPRequest(url: demo.baseURL + "/gzip", acceptEncoding: nil))
        #expect(Array(raw.body.prefix(2)) == [0x1F, 0x8B])
    }

    // MARK: - Redirects

    @Test func followsAndCountsRedirects() async throws {
        let response = try await session.perform(HTTPRequest(url: demo.baseURL + "/redirect/3"))
        #expect(response.statusCode == 200)
        #expect(response.redirectCount == 3)
        #expect(response.effectiveURL == demo.baseURL + "/redirect/0")
    }

    @Test func redirectsCanBeTurnedOffOrBounded() async throws {
        let off = try await session.perform(HTTPRequest(url: demo.baseURL + "/redirect/3", followRedirects: false))
        #expect(off.statusCode == 302)
        #expect(off.headers["Location"] == "/redirect/2")
        let error = await failure(of: HTTPRequest(url: demo.baseURL + "/redirect/3", maxRedirects: 1))
        #expect(error?.reason == .tooManyRedirects)
    }

    // MARK: - Cookies

    @Test func cookieJarsAreSharedWithinAndSeparateAcross() async throws {
        let jarA = CookieJar()
        let jarB = CookieJar()
        _ = try await session.perform(HTTPRequest(url: demo.baseURL + "/cookies/set?flavour=oatmeal", cookieJar: jarA))
        let seenByA = try json(try await session.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: jarA)))
        let seenByB = try json(try await session.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: jarB)))
        let seenByNone = try json(try await session.perform(HTTPRequest(url: demo.baseURL + "/cookies")))
        #expect(seenByA["cookies"]?["flavour"] == "oatmeal")
        #expect(seenByB["cookies"]?["flavour"] == nil)
        #expect(seenByNone["cookies"]?["flavour"] == nil)
        session.close(jarA)
        let afterClose = try json(
            try await session.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: jarA)))
        #expect(afterClose["cookies"]?["flavour"] == nil)
    }

    @Test func aPooledHandleCarriesNoCookieToItsNextTransfer() async throws {
        // One connection: every request runs on the same pooled handle, whose cookie engine the first jar turns on.
        let single = SessionManager(configuration: SessionConfiguration(maxConnections: 1, timeout: .seconds(10)))
        defer { single.shutdown() }
        let first = CookieJar()
        _ = try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies/set?first=1", cookieJar: first))
        // A request without a jar (an OAuth2 token request) keeps none of the cookies its response sets.
        _ = try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies/set?loose=1"))
        let jarless = try json(try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies")))
        #expect(cookies(jarless) == [:])
        // A new empty jar starts empty; the first jar kept its own cookie, and only its own.
        let fresh = try json(
            try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: CookieJar())))
        #expect(cookies(fresh) == [:])
        let kept = try json(try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: first)))
        #expect(cookies(kept) == ["first": "1"])
        // A copy of a jar starts with its cookies; what the copy then sets stays in the copy.
        let copy = CookieJar(copying: first)
        _ = try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies/set?second=2", cookieJar: copy))
        let inCopy = try json(try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: copy)))
        #expect(cookies(inCopy) == ["first": "1", "second": "2"])
        let inFirst = try json(try await single.perform(HTTPRequest(url: demo.baseURL + "/cookies", cookieJar: first)))
        #expect(cookies(inFirst) == ["first": "1"])
    }

    @Test func aPooledHandleCarriesNoOptionToItsNextTransfer() async throws {
        // One connection: the second request runs on the handle the first left, reset when the first ended.
        let single = SessionManager(configuration: SessionConfiguration(maxConnections: 1, timeout: .seconds(10)))
        defer { single.shutdown() }
        let first = try await single.perform(HTTPRequest(url: demo.baseURL + "/headers", headers: ["X-Previous": "1"]))
        #expect(try json(first)["headers"]?["X-Previous"] == "1")
        #expect(try json(first)["headers"]?["Accept-Encoding"] != nil)
        let second = try await single.perform(HTTPRequest(url: demo.baseURL + "/headers", acceptEncoding: nil))
        let seen = try json(second)["headers"]
        #expect(seen != nil)
        #expect(seen?["X-Previous"] == nil)
        #expect(seen?["Accept-Encoding"] == nil)
    }

    @Test func manyTransfersOnFewPooledHandlesKeepTheirOwnRequests() async throws {
        // 300 transfers, at most 8 at a time, on a session that keeps 4 idle handles: nearly every transfer starts on
        // a handle an earlier one left and the loop reset, and every response still answers its own request.
        let small = SessionManager(configuration: SessionConfiguration(maxConnections: 4, timeout: .seconds(20)))
        defer { small.shutdown() }
        let url = demo.baseURL + "/headers"
        let total = 300
        let echoed = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            func add(_ index: Int) {
                group.addTask {
                    let response = try await small.perform(HTTPRequest(url: url, headers: ["X-Index": "\(index)"]))
                    return (index, try JSONParser.parse(response.body)["headers"]?["X-Index"]?.stringValue)
                }
            }
            var next = 0
            while next < 8 {
                add(next)
                next += 1
            }
            var echoed: [Int: String] = [:]
            while let (index, value) = try await group.next() {
                echoed[index] = value
                if next < total {
                    add(next)
                    next += 1
                }
            }
            return echoed
        }
        #expect(echoed.count == total)
        #expect(echoed.allSatisfy { index, value in value == "\(index)" })
    }

    // MARK: - Failures

    @Test func connectionRefused() async throws {
        let error = await failure(of: HTTPRequest(url: "http://127.0.0.1:\(try closedPort())/"))
        #expect(error?.reason == .connectionRefused)
        #expect(error?.message.hasPrefix("connection refused") == true)
    }

    @Test func emptyReplyAndReset() async throws {
        #expect(await failure(of: HTTPRequest(url: faults.baseURL + "/close"))?.reason == .emptyReply)
        let reset = await failure(of: HTTPRequest(url: faults.baseURL + "/reset"))
        #expect(reset?.reason == .connectionReset || reset?.reason == .other, "got \(String(describing: reset))")
    }

    @Test func totalTimeoutStopsASlowResponse() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = await failure(of: HTTPRequest(url: demo.baseURL + "/delay/5000", timeout: .milliseconds(300)))
        #expect(error?.reason == .timedOut)
        #expect(clock.now - start < .seconds(3))
        let stalled = await failure(of: HTTPRequest(url: faults.baseURL + "/stall", timeout: .milliseconds(300)))
        #expect(stalled?.reason == .timedOut)
    }

    @Test func invalidURLsAreRefusedBeforeConnecting() async throws {
        let error = await failure(of: HTTPRequest(url: "ftp://127.0.0.1/x"))
        #expect(error?.reason == .invalidRequest)
    }

    /// A redirect is followed to HTTP and HTTPS only: a server cannot send the client to a local file or another
    /// protocol (the protocol bitmask on every transfer, redirects included).
    @Test func redirectsToOtherProtocolsAreRefused() async throws {
        for target in ["file:///etc/hostname", "ftp://127.0.0.1/x", "dict://127.0.0.1/x", "gopher://127.0.0.1/x"] {
            let query = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let error = await failure(of: HTTPRequest(url: demo.baseURL + "/redirect-to?url=\(query)"))
            #expect(error?.reason == .invalidRequest, "redirect to \(target)")
        }
        // The same server's HTTP redirect is still followed.
        let followed = try await session.perform(HTTPRequest(url: demo.baseURL + "/redirect/2"))
        #expect(followed.statusCode == 200)
        #expect(followed.redirectCount == 2)
    }

    // MARK: - Concurrency and cancellation

    @Test func manyConcurrentTransfersAllComplete() async throws {
        let url = demo.baseURL
        let codes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask { [session] in
                    let response = try await session.perform(HTTPRequest(url: "\(url)/status/\(200 + index % 3)"))
                    return response.statusCode
                }
            }
            var codes: [Int] = []
            for try await code in group { codes.append(code) }
            return codes
        }
        #expect(codes.count == 200)
        #expect(codes.filter { $0 == 200 }.count == 67)
        #expect(Set(codes) == [200, 201, 202])
    }

    @Test func connectionsAreReusedUpToTheConfiguredCount() async throws {
        let width = 5
        let pool = SessionManager(configuration: SessionConfiguration(maxConnections: width))
        defer { pool.shutdown() }
        let url = faults.baseURL + "/port?sleep=0.2"
        var ports = Set<Int64>()
        for _ in 0..<3 {
            // Each wave holds `width` transfers in flight at once, so it needs `width` connections.
            let wave = try await withThrowingTaskGroup(of: Int64.self) { group in
                for _ in 0..<width {
                    group.addTask {
                        let response = try await pool.perform(HTTPRequest(url: url))
                        guard case .integer(let port) = try JSONParser.parse(response.body)["port"] else { return -1 }
                        return port
                    }
                }
                var ports: [Int64] = []
                for try await port in group { ports.append(port) }
                return ports
            }
            #expect(Set(wave).count == width)
            ports.formUnion(wave)
        }
        #expect(ports.count == width, "later waves reuse the first wave's connections")
        let sequential = try await (0..<5).asyncMap { _ in
            try JSONParser.parse(try await pool.perform(HTTPRequest(url: faults.baseURL + "/port")).body)["port"]
        }
        #expect(Set(sequential.compactMap { $0 }).count == 1)
    }

    @Test func connectionsClosedAndOpenedAgainKeepWorking() async throws {
        // Each `/bye` ends its connection; the next request opens a socket that often gets the closed one's number.
        // The loop must watch the new socket afresh, or that request waits for its timeout.
        let pool = SessionManager(configuration: SessionConfiguration(maxConnections: 2, timeout: .seconds(5)))
        defer { pool.shutdown() }
        let clock = ContinuousClock()
        let start = clock.now
        var ports: [Int64] = []
        for index in 0..<40 {
            let path = index % 3 == 2 ? "/bye" : "/port"
            let response = try await pool.perform(HTTPRequest(url: faults.baseURL + path))
            guard case .integer(let port) = try JSONParser.parse(response.body)["port"] else {
                Issue.record("no port in \(path)'s answer")
                continue
            }
            ports.append(port)
        }
        #expect(ports.count == 40)
        // Three requests per connection (two kept alive, then `/bye`): 14 connections, none waiting for a timeout.
        #expect(Set(ports).count == 14)
        #expect(clock.now - start < .seconds(4), "a request waited for its timeout")
        // A refused connection closes a socket libcurl watched for writing; the next connection's socket (often
        // with the same number) is watched for writing too, and must still be added: else its connect is seen
        // only when a libcurl timer next fires (about 250 ms later each time, 2.5 s for the ten).
        let refused = "http://127.0.0.1:\(try closedPort())/"
        let pairsStart = clock.now
        for _ in 0..<10 {
            #expect(await failure(of: HTTPRequest(url: refused), in: pool)?.reason == .connectionRefused)
            #expect(try await pool.perform(HTTPRequest(url: faults.baseURL + "/bye")).statusCode == 200)
        }
        #expect(clock.now - pairsStart < .milliseconds(1500), "a new connection waited for a timer")
    }

    @Test func cancellingTheTaskCancelsTheTransferPromptly() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { [session, demo] in
            try await session.perform(HTTPRequest(url: demo.baseURL + "/delay/10000"))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        #expect(clock.now - start < .seconds(3))
        guard case .failure(let error) = result else {
            Issue.record("the transfer was not cancelled")
            return
        }
        #expect(error is CancellationError)
        // The session still works afterwards.
        #expect(try await session.perform(HTTPRequest(url: demo.baseURL + "/health")).statusCode == 200)
    }

    @Test func shutdownFailsTransfersInFlightAndLaterOnes() async throws {
        let own = SessionManager()
        let task = Task { [demo] in try await own.perform(HTTPRequest(url: demo.baseURL + "/delay/10000")) }
        try await Task.sleep(for: .milliseconds(200))
        own.shutdown()
        let result = await task.result
        if case .failure(let error as HTTPError) = result {
            #expect(error.reason == .cancelled)
        } else {
            Issue.record("expected a cancelled transfer, got \(result)")
        }
        #expect(await failure(of: HTTPRequest(url: demo.baseURL + "/health"), in: own)?.reason == .cancelled)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

import APITestResults
import APITestSupport
import Foundation

// MARK: - From a run record

extension HARDocument {
    /// The archive of `record`: a page per suite, an entry per exchange in the order they were sent.
    init(_ record: RunRecord, toolVersion: String) {
        var pages: [Page] = []
        var entries: [(date: Date, entry: Entry)] = []
        for (suiteIndex, suite) in record.suites.enumerated() {
            let pageID = "page_\(suiteIndex + 1)"
            var first: Date?
            for result in suite.results {
                for (testAttempt, attempt) in result.allAttempts.enumerated() {
                    for step in attempt.steps {
                        let place = Place(
                            suite: suite.name, file: suite.file, test: result.name, pageID: pageID,
                            testAttempt: testAttempt + 1, runStart: record.startedAt)
                        for entry in Self.entries(of: step, at: place) {
                            entries.append(entry)
                            first = min(first ?? entry.date, entry.date)
                        }
                    }
                }
            }
            pages.append(
                Page(
                    startedDateTime: Self.timestamp(first ?? record.startedAt), id: pageID,
                    title: suite.name.isEmpty ? suite.file : suite.name))
        }
        // In the order they were sent (the sort is stable: one step's exchanges keep their order).
        let sorted = entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
        log = Log(creator: Creator(version: toolVersion), pages: pages, entries: sorted.map(\.element.entry))
    }

    /// Where an exchange comes from.
    struct Place {
        var suite: String
        var file: String
        var test: String
        var pageID: String
        var testAttempt: Int
        var runStart: Date
    }

    /// The entries of `step`: its token requests, its earlier attempts, its last exchange; before each exchange, an
    /// entry per redirect it followed (`redirect`), in order.
    static func entries(of step: StepResult, at place: Place) -> [(date: Date, entry: Entry)] {
        var entries: [(Date, Entry)] = []
        func add(_ exchange: Exchange, attempt: Int, kind: String, error: String? = nil) {
            func origin(_ kind: String) -> Origin {
                Origin(
                    suite: place.suite, file: place.file, test: place.test, step: step.displayName,
                    stepIndex: step.index, attempt: attempt, testAttempt: place.testAttempt, kind: kind)
            }
            var date = exchange.startedAt ?? place.runStart
            var final = exchange
            if let hops = exchange.redirectHops, !hops.isEmpty {
                // Each hop started when the one before it ended; the final response's timings count from the start
                // of the first hop (as libcurl's own following counts them): its entry keeps its own transfer's.
                var elapsed = Duration.zero
                for hop in hops {
                    entries.append(
                        (date, entry(hop, date: date, page: place.pageID, origin: origin("redirect"), error: nil)))
                    let hopTotal = hop.timings?.total ?? .zero
                    elapsed += hopTotal
                    date = date.addingTimeInterval(Self.seconds(hopTotal))
                }
                final.timings = final.timings.map { Self.timings($0, less: elapsed) }
                // The final entry is the last hop's request: the URL the redirects led to, and the method (and
                // body) as the redirects left them (a 303, or a 301 or 302 after a POST, makes a GET without body).
                final.url = exchange.effectiveURL ?? final.url
                for hop in hops {
                    if RedirectMethodRewrite.becomesGET(method: final.method, status: hop.statusCode ?? 0) {
                        final.method = "GET"
                        final.requestBody = nil
                        final.requestBodySize = 0
                        final.requestParts = nil
                        final.requestBodyIsNote = nil
                    }
                }
            }
            entries.append((date, entry(final, date: date, page: place.pageID, origin: origin(kind), error: error)))
        }
        let earlier = step.earlierExchanges ?? []
        for token in step.tokenExchanges ?? [] { add(token, attempt: 1, kind: "token") }
        for (index, exchange) in earlier.enumerated() { add(exchange, attempt: index + 1, kind: "request") }
        if let exchange = step.exchange {
            let error = exchange.statusCode == nil ? step.error?.message : nil
            add(exchange, attempt: max(step.attempts, earlier.count + 1), kind: "request", error: error)
        }
        return entries
    }

    /// `timings` with `elapsed` (the redirects before) taken off each phase that had started.
    static func timings(_ timings: Exchange.Timings, less elapsed: Duration) -> Exchange.Timings {
        func less(_ phase: Duration) -> Duration { phase > elapsed ? phase - elapsed : phase > .zero ? .zero : phase }
        var result = timings
        result.nameLookup = less(timings.nameLookup)
        result.connect = less(timings.connect)
        result.tlsHandshake = less(timings.tlsHandshake)
        result.firstByte = less(timings.firstByte)
        result.total = less(timings.total)
        result.preTransfer = timings.preTransfer.map(less)
        return result
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }

    /// The entry of one exchange.
    static func entry(_ exchange: Exchange, date: Date, page: String, origin: Origin, error: String?) -> Entry {
        let timings = timings(of: exchange)
        let time = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
            .filter { $0 > 0 }.reduce(0, +)
        let total = (time * 1000).rounded() / 1000
        var entry = Entry(
            pageref: page, startedDateTime: timestamp(date), time: total, request: request(of: exchange),
            response: response(of: exchange), timings: timings, apitest: origin)
        entry.serverIPAddress = exchange.remoteAddress.flatMap(ipAddress(of:))
        entry.connection = exchange.localPort.map(String.init)
        entry.error = error
        return entry
    }

    // MARK: - Request and response

    static func request(of exchange: Exchange) -> Request {
        let headers = exchange.sentRequestHeaders ?? exchange.requestHeaders
        return Request(
            method: exchange.method, url: exchange.url, httpVersion: exchange.httpVersion ?? "HTTP/1.1",
            cookies: headers.filter { $0.name.lowercased() == "cookie" }.flatMap { requestCookies($0.value) },
            headers: headers.map { NameValue(name: $0.name, value: $0.value) },
            queryString: queryString(of: exchange.url), postData: postData(of: exchange, headers: headers),
            bodySize: Int(exchange.requestBodySize))
    }

    static func postData(of exchange: Exchange, headers: [Exchange.Header]) -> PostData? {
        guard exchange.requestBody != nil || exchange.requestParts != nil || exchange.requestBodySize > 0 else {
            return nil
        }
        let mimeType = headers.last { $0.name.lowercased() == "content-type" }?.value ?? ""
        if let parts = exchange.requestParts {
            return PostData(
                mimeType: mimeType,
                params: parts.map {
                    Param(name: $0.name, value: $0.value, fileName: $0.fileName, contentType: $0.contentType)
                })
        }
        let body = exchange.requestBody ?? ""
        if exchange.requestBodyIsNote == true {
            return PostData(mimeType: mimeType, text: "", comment: "not recorded: \(body)")
        }
        let (text, comment) = previewText(body, size: Int(exchange.requestBodySize))
        var postData = PostData(mimeType: mimeType, text: text, comment: comment)
        if mimeType.lowercased().hasPrefix("application/x-www-form-urlencoded"), comment == nil {
            postData.params = formParams(text).map { Param(name: $0.name, value: $0.value) }
        }
        return postData
    }

    static func response(of exchange: Exchange) -> Response {
        guard let status = exchange.statusCode else {
            return Response(
                status: 0, statusText: "", httpVersion: "", cookies: [], headers: [],
                content: Content(size: 0, mimeType: "x-unknown"), redirectURL: "", bodySize: -1)
        }
        let headers = exchange.responseHeaders
        let mimeType = headers.last { $0.name.lowercased() == "content-type" }?.value ?? "x-unknown"
        var content = Content(size: exchange.responseBodySize, mimeType: mimeType)
        if let base64 = exchange.responseBodyBase64 {
            content.text = base64
            content.encoding = "base64"
            let kept = Data(base64Encoded: base64)?.count ?? 0
            if kept < exchange.responseBodySize {
                content.comment = "the first \(kept) of \(exchange.responseBodySize) bytes (the report preview limit)"
            }
        } else if let body = exchange.responseBody {
            if exchange.responseBodyIsNote == true {
                if !body.isEmpty { content.comment = "not recorded: \(body)" }
            } else {
                (content.text, content.comment) = previewText(body, size: exchange.responseBodySize)
            }
        }
        return Response(
            status: status, statusText: exchange.reasonPhrase ?? "", httpVersion: exchange.httpVersion ?? "",
            cookies: headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { responseCookie($0.value) },
            headers: headers.map { NameValue(name: $0.name, value: $0.value) }, content: content,
            redirectURL: headers.last { $0.name.lowercased() == "location" }?.value ?? "",
            bodySize: exchange.responseBodySize)
    }

    /// A body preview's text without the note sealing adds when it cut it (`… (N bytes in all)`), and a comment
    /// saying so.
    static func previewText(_ preview: String, size: Int) -> (text: String, comment: String?) {
        let suffix = "… (\(size) bytes in all)"
        guard preview.hasSuffix(suffix) else { return (preview, nil) }
        let text = String(preview.dropLast(suffix.count))
        return (text, "cut at the report preview limit: the first \(text.utf8.count) of \(size) bytes")
    }

    // MARK: - Fields read from others

    /// The query's parameters, percent-decoded (`+` is a space in a form-encoded query).
    static func queryString(of url: String) -> [NameValue] {
        guard let start = url.firstIndex(of: "?") else { return [] }
        var query = url[url.index(after: start)...]
        if let fragment = query.firstIndex(of: "#") { query = query[..<fragment] }
        return formParams(String(query))
    }

    /// The name-value pairs of `application/x-www-form-urlencoded` text.
    static func formParams(_ text: String) -> [NameValue] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return NameValue(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// The cookies of a `Cookie` header (none when the header was masked whole: a pair has a `=`).
    static func requestCookies(_ value: String) -> [Cookie] {
        value.split(separator: ";").compactMap { pair in
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return nil }
            return Cookie(name: String(trimmed[..<equals]), value: String(trimmed[trimmed.index(after: equals)...]))
        }
    }

    /// The cookie a `Set-Cookie` header sets, with its attributes.
    static func responseCookie(_ value: String) -> Cookie? {
        let fields = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = fields.first, let equals = first.firstIndex(of: "=") else { return nil }
        var cookie = Cookie(
            name: String(first[..<equals]), value: String(first[first.index(after: equals)...]))
        for attribute in fields.dropFirst() {
            let parts = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].lowercased()
            let value = parts.count > 1 ? String(parts[1]) : ""
            switch name {
            case "path": cookie.path = value
            case "domain": cookie.domain = value
            case "expires": cookie.expires = expiry(value)
            case "httponly": cookie.httpOnly = true
            case "secure": cookie.secure = true
            default: break
            }
        }
        return cookie
    }

    /// An `Expires` date (RFC 1123) as ISO 8601, or nil when it is no such date.
    static func expiry(_ value: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map(timestamp)
    }

    /// The address of `ip:port` or `[ip]:port`, without the port; nil when there is none.
    static func ipAddress(of address: String) -> String? {
        var host = Substring(address)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return host.isEmpty ? nil : String(host)
    }

    // MARK: - Time

    /// `date` as ISO 8601 in UTC with milliseconds: `2026-05-01T12:34:56.789Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The phases of `exchange`'s transfer from libcurl's times, each measured from the transfer's start.
    static func timings(of exchange: Exchange) -> Timings {
        guard let t = exchange.timings else {
            return Timings(blocked: -1, dns: -1, connect: -1, send: 0, wait: 0, receive: 0, ssl: -1)
        }
        let lookup = milliseconds(t.nameLookup)
        let connected = milliseconds(t.connect)
        let secured = milliseconds(t.tlsHandshake)
        let firstByte = milliseconds(t.firstByte)
        let total = milliseconds(t.total)
        // A reused connection has neither a name lookup nor a connection of its own.
        let newConnection = connected > 0
        let ready = max(connected, secured)
        let preTransfer = max(t.preTransfer.map(milliseconds) ?? ready, ready)
        let responded = exchange.statusCode != nil && firstByte > 0
        return Timings(
            blocked: rounded(preTransfer - ready),
            dns: newConnection ? rounded(lookup) : -1,
            connect: newConnection ? rounded(max(0, ready - lookup)) : -1,
            send: 0,
            wait: responded ? rounded(max(0, firstByte - preTransfer)) : rounded(max(0, total - preTransfer)),
            receive: responded ? rounded(max(0, total - firstByte)) : 0,
            ssl: newConnection && secured > 0 ? rounded(max(0, secured - connected)) : -1)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    /// Milliseconds to the microsecond.
    private static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }
}

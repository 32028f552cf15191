import APITestJSON
package import APITestSuiteWriting
import Foundation

/// Turns a HAR 1.2 archive into one ``SuiteDocument``: one test per recorded entry of the included resource types,
/// in recording order, expecting the recorded status.
///
/// - Types: Chromium records `_resourceType` (`document`, `xhr`, `fetch`, `script`, `stylesheet`, `image`, `font`,
///   `preflight`, ...); without it (Firefox, Safari) the type is guessed from the response's media type, and a guessed
///   `xhr` matches `fetch` too (HTML is `document`, JSON, XML and text `xhr`, CSS `stylesheet`, JavaScript `script`,
///   `image/*` `image`, fonts `font`).
/// - Secrets: the credential of `Authorization` and `Proxy-Authorization` (the scheme stays), every cookie of `Cookie`,
///   the value of headers and query parameters whose names say they hold one (token, secret, key, password, session,
///   auth, signature, csrf, ...) are read from the environment (`{{ env.AUTHORIZATION }}`), never written into the
///   suite. The names are derived from the header, cookie or parameter (upper case, `_` for the rest; cookies get
///   `COOKIE_`), numbered when one name carried different values, and listed at the top of the suite.
/// - A header recorded several times is sent once with its values joined (`; ` for `Cookie`, `, ` otherwise).
/// - Headers the transport sets itself (`Host`, `Content-Length`, `Connection`, `Accept-Encoding`, HTTP/2
///   pseudo-headers) are left out. A recorded redirect (3xx) is expected as such: the test does not follow it.
/// - When every entry has the same origin, it is the suite variable `origin` and `baseURL` is `{{ origin }}`, so
///   `--var origin=https://staging.example.com` replays the recording elsewhere.
package struct HARImporter: Sendable {
    /// The resource types imported when none are named.
    package static let defaultTypes = ["xhr", "fetch", "document", "websocket"]

    /// The archive.
    package var archive: HARArchive
    /// Chromium's resource types, for `--include-types all`.
    package static let allTypes = [
        "document", "xhr", "fetch", "script", "stylesheet", "image", "font", "media", "manifest", "websocket", "ping",
        "preflight", "texttrack", "eventsource", "signedexchange", "cspviolationreport", "other",
    ]

    /// The resource types to import (lower case).
    package var includeTypes: Set<String>
    /// Whether every entry is imported, whatever its type (`--include-types all`).
    package var includesEverything = false
    /// The archive's file name, for the header comment.
    package var file: String
    /// The folder, relative to the suite's, where bodies that are not text are written (`bodyFile`); nil when no
    /// file can be written beside the suite (it goes to standard output): such a body is then left out, noted.
    package var bodyFolder: String?

    /// An importer of `archive` keeping `includeTypes`.
    package init(archive: HARArchive, includeTypes: [String] = defaultTypes, file: String) {
        self.archive = archive
        self.includeTypes = Set(includeTypes.map { $0.lowercased() })
        self.file = file
    }

    // MARK: - Types

    /// The entry's resource type: recorded, or guessed from the response's media type.
    static func resourceType(of entry: HAREntry) -> (type: String, guessed: Bool) {
        if let recorded = entry.resourceType, !recorded.isEmpty { return (recorded.lowercased(), false) }
        if isWebSocket(entry) { return ("websocket", true) }
        let mime = (entry.responseMimeType ?? "").lowercased().split(separator: ";").first.map(String.init) ?? ""
        let type: String
        if mime == "text/html" || mime == "application/xhtml+xml" {
            type = "document"
        } else if mime == "text/css" {
            type = "stylesheet"
        } else if mime.contains("javascript") || mime.contains("ecmascript") {
            type = "script"
        } else if mime.hasPrefix("image/") {
            type = "image"
        } else if mime.hasPrefix("font/") || mime.contains("font") {
            type = "font"
        } else if mime.hasPrefix("audio/") || mime.hasPrefix("video/") {
            type = "media"
        } else if mime.contains("json") || mime.contains("xml") || mime.hasPrefix("text/") || mime.isEmpty {
            type = "xhr"
        } else {
            type = "other"
        }
        return (type, true)
    }

    /// Whether the entry is imported.
    func includes(_ entry: HAREntry) -> Bool {
        if includesEverything { return true }
        let (type, guessed) = Self.resourceType(of: entry)
        if includeTypes.contains(type) { return true }
        return guessed && type == "xhr" && includeTypes.contains("fetch")
    }

    // MARK: - The suite

    /// The suite.
    package func suite(named name: String? = nil) -> SuiteDocument {
        var suite = SuiteDocument(name: name ?? Self.suiteName(file))
        suite.header.append(
            "Imported by `apitest import har` from \(file)\(archive.creator.map { " (recorded by \($0))" } ?? "").")
        var secrets = HARSecrets()
        var skipped: [String: Int] = [:]
        var kept: [HAREntry] = []
        for entry in archive.entries {
            if !includes(entry) {
                skipped[Self.resourceType(of: entry).type, default: 0] += 1
            } else if entry.status == 0 {
                suite.notes.append(
                    SuiteDocument.Note(
                        location: "entry \(entry.index + 1)",
                        text: "\(entry.method) \(entry.url) got no response (blocked or cancelled): left out"))
            } else if Self.isWebSocket(entry), entry.status != 101 {
                suite.notes.append(
                    SuiteDocument.Note(
                        location: "entry \(entry.index + 1)",
                        text: "the WebSocket upgrade to \(entry.url) was answered \(entry.status), not 101 (no "
                            + "conversation to replay): left out"))
            } else {
                kept.append(entry)
            }
        }
        // A WebSocket entry's origin is its HTTP one (`wss://h` is `https://h`): its URL is then relative too.
        let origins = Set(kept.compactMap { Self.origin(of: Self.httpURL($0.url)) })
        let origin = origins.count == 1 ? origins.first : nil
        // The origin as suite text: a password in its user information is read from the environment.
        let suiteOrigin = origin.map { secrets.url($0, entry: kept[0].index + 1) }
        if let suiteOrigin {
            suite.variables.append((name: "origin", value: .string(suiteOrigin)))
            suite.baseURL = "{{ origin }}"
        }
        for entry in kept {
            if Self.isWebSocket(entry) {
                suite.tests.append(webSocketTest(entry, origin: suiteOrigin, secrets: &secrets, files: &suite.files))
            } else {
                suite.tests.append(test(entry, origin: suiteOrigin, secrets: &secrets, files: &suite.files))
            }
        }
        if !skipped.isEmpty {
            let counts = skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let total = skipped.values.reduce(0, +)
            suite.header.append(
                "\(total) entr\(total == 1 ? "y" : "ies") of other types left out (\(counts)); types imported: "
                    + includeTypes.sorted().joined(separator: ", ") + " (--include-types).")
            suite.notes.append(
                SuiteDocument.Note(
                    location: file,
                    text: "\(total) entr\(total == 1 ? "y was" : "ies were") left out by --include-types (\(counts))"))
        }
        if !secrets.variables.isEmpty {
            suite.header.append("Secrets are read from the environment, not written here:")
            for variable in secrets.variables {
                suite.header.append(
                    "  \(variable.name): \(variable.source), entr\(variable.entries.count == 1 ? "y" : "ies") \(variable.entries.map(String.init).joined(separator: ", "))"
                )
            }
        }
        return suite
    }

    /// The test of one entry; `origin` is the suite's, as suite text.
    func test(
        _ entry: HAREntry, origin: String?, secrets: inout HARSecrets, files: inout [SuiteDocument.File]
    ) -> SuiteDocument.Test {
        let number = entry.index + 1
        var url = secrets.url(entry.url, entry: number)
        if let origin, url.hasPrefix(origin) {
            url = String(url.dropFirst(origin.count))
            if url.isEmpty || url.hasPrefix("?") { url = "/" + url }
        }
        var request = SuiteDocument.Request(method: entry.method, url: url)
        request.headers = requestHeaders(entry, secrets: &secrets)
        let hasContentType = request.headers.contains { $0.name.lowercased() == "content-type" }
        var notes: [SuiteDocument.Note] = []
        if let body = entry.postData {
            if let text = body.text {
                request.body = self.body(
                    body, text: text, number: number,
                    contentType: hasContentType || body.mimeType.isEmpty ? nil : body.mimeType, files: &files,
                    notes: &notes)
            } else if body.mimeType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
                request.body = .form(
                    body.params.map { (name: $0.name, value: .string(TemplateLiteral.escaped($0.value))) })
            } else if body.mimeType.lowercased().hasPrefix("multipart/form-data"), !body.params.isEmpty {
                request.body = .multipart(multipartParts(body.params, number: number, notes: &notes))
                // The recorded Content-Type names the recording's boundary: the runner writes its own.
                request.headers.removeAll { $0.name.lowercased() == "content-type" }
            }
        }
        var test = SuiteDocument.Test(name: "\(entry.method) \(Self.path(of: entry.url))", request: request)
        test.expect.status = [.integer(Int64(entry.status))]
        if (300...399).contains(entry.status) { test.request.followRedirects = false }
        test.comments = ["entry \(number)" + (entry.resourceType.map { " (\($0))" } ?? "")]
        test.notes = notes
        return test
    }

    /// The entry's request headers as the suite sends them: those the transport writes (and `skipping`) left out,
    /// credentials as environment variables (``HARSecrets``), a repeated field joined.
    func requestHeaders(
        _ entry: HAREntry, skipping: Set<String> = [], secrets: inout HARSecrets
    ) -> [SuiteDocument.Header] {
        var headers: [SuiteDocument.Header] = []
        for header in entry.headers {
            let lower = header.name.lowercased()
            if lower.hasPrefix(":") || Self.transportHeaders.contains(lower) || skipping.contains(lower) { continue }
            let value = secrets.header(header.name, header.value, entry: entry.index + 1)
            if let index = headers.firstIndex(where: { $0.name.lowercased() == lower }) {
                // A suite's headers are a map: a repeated field (HTTP/2 sends each cookie apart) is joined.
                headers[index].value += (lower == "cookie" ? "; " : ", ") + value
                continue
            }
            headers.append(SuiteDocument.Header(header.name, value))
        }
        return headers
    }

    /// Headers the transport writes itself.
    static let transportHeaders: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
        "proxy-connection", "accept-encoding",
    ]

    // MARK: - URLs

    /// `scheme://host[:port]` of an absolute URL.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(url[..<end])
    }

    /// The path of an absolute URL, without query.
    static func path(of url: String) -> String {
        guard let origin = origin(of: url) else { return url }
        let rest = url.dropFirst(origin.count)
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : String(path)
    }

    /// A suite name from the file's name: `recording.har` → `recording`.
    static func suiteName(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".har") ? String(base.dropLast(4)) : base
    }
}

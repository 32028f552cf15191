import APITestSuiteWriting
import Foundation

extension CurlTranslation {
    // MARK: - Tests

    /// A test per URL, each sending the request the options describe.
    func tests() throws(CurlImporter.Failure) -> [SuiteDocument.Test] {
        var result: [SuiteDocument.Test] = []
        for url in urls { result.append(try test(url)) }
        return result
    }

    /// Whether `-H` gave a field named `name` (any case).
    private func hasHeader(_ name: String) -> Bool {
        headers.contains { $0.name.lowercased() == name.lowercased() }
    }

    /// The data pieces joined as curl joins them: `&` between pieces, nothing between two `--json` pieces.
    private func joinedData() throws(CurlImporter.Failure) -> String {
        var result = ""
        for (index, piece) in data.enumerated() {
            guard let text = piece.text else {
                throw CurlImporter.Failure(
                    location: locate(piece.position),
                    message: "the file is not UTF-8 text: it can only be sent alone, as the whole body "
                        + "(--data-binary @file)")
            }
            if index > 0 { result += piece.isJSON && data[index - 1].isJSON ? "" : "&" }
            result += text
        }
        return result
    }

    private func test(_ url: String) throws(CurlImporter.Failure) -> SuiteDocument.Test {
        let hasBody = !data.isEmpty || !parts.isEmpty
        let method = self.method ?? (head ? "HEAD" : get ? "GET" : hasBody ? "POST" : "GET")
        var request = SuiteDocument.Request(method: method, url: url)
        var fileNotes: [SuiteDocument.Note] = []
        if get, !data.isEmpty {
            request.url = Self.appendingQuery(try joinedData(), to: url)
            fileNotes = inlinedNotes(because: "-G puts it in the URL")
        } else if !data.isEmpty {
            let isJSON = data.allSatisfy(\.isJSON)
            let contentType =
                hasHeader("Content-Type") || removedHeaders.contains("content-type")
                ? nil : isJSON ? "application/json" : "application/x-www-form-urlencoded"
            if data.count == 1, let file = data[0].file {
                request.body = .file(path: file, contentType: contentType)
                if let source = data[0].source, isOutsideWorkingDirectory(source) {
                    fileNotes.append(
                        SuiteDocument.Note(
                            location: locate(data[0].position),
                            text: "the suite sends \(fileInWords(source)) as the body, as curl does"))
                }
            } else {
                request.body = .text(try joinedData(), contentType: contentType)
                fileNotes = inlinedNotes(
                    because: data.count == 1 ? "curl removes its line breaks" : "curl joins it with the other data")
            }
        } else if !parts.isEmpty {
            request.body = .multipart(parts)
        }

        // Fields curl makes from options come first; -H replaces them.
        var fields: [SuiteDocument.Header] = []
        if let userAgent, !userAgent.isEmpty, !hasHeader("User-Agent") {
            fields.append(SuiteDocument.Header("User-Agent", userAgent))
        }
        if let referer, !hasHeader("Referer") { fields.append(SuiteDocument.Header("Referer", referer)) }
        if !cookies.isEmpty, !hasHeader("Cookie") {
            fields.append(SuiteDocument.Header("Cookie", cookies.joined(separator: ";")))
        }
        if let range, !hasHeader("Range") { fields.append(SuiteDocument.Header("Range", range)) }
        let auth = resolvedAuth(for: url)
        fields += headers.filter { $0.name.lowercased() != auth.movedHeader }.map {
            SuiteDocument.Header($0.name, $0.value)
        }
        if data.contains(where: \.isJSON), !get, !hasHeader("Accept") {
            fields.append(SuiteDocument.Header("Accept", "application/json"))
        }
        request.headers = fields
        request.basicAuth = auth.basic
        request.auth = auth.auth
        let (transport, transportNotes) = self.transport(for: url)
        request.transport = transport
        request.timeout = timeout
        request.followRedirects = followRedirects ? nil : false
        request.maxRedirects = maxRedirects
        request.compressed = compressed ? nil : false

        var test = SuiteDocument.Test(name: "\(method) \(Self.path(of: url))", request: request)
        test.comments = [commandText]
        test.notes = notes + fileNotes + auth.notes + transportNotes
        return test
    }

    /// `url` with `data` added to its query as curl 7.88's `-G` adds it (through libcurl's URL API,
    /// `CURLU_APPENDQUERY`): after a `&` unless the query is empty or already ends with one, before a fragment, and
    /// with the hexadecimal digits of every `%XX` of `data` in lower case (`--data-urlencode 'q=/'` is sent as
    /// `q=%2f`, `-d 'q=%2F'` too; the URL's own query stays as written). Empty data (`-d ''`, `--data-urlencode '='`)
    /// added to no query or an empty one leaves no query at all: curl sends `GET /r`, not `GET /r?`.
    /// `CurlImportTests` and `CurlEmptyQueryTests` compare it with the real curl's request line.
    static func appendingQuery(_ data: String, to url: String) -> String {
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = url.firstIndex(of: "#") {
            base = url[..<hash]
            fragment = url[hash...]
        }
        let separator: String
        if data.isEmpty, base.firstIndex(of: "?").map({ base.index(after: $0) == base.endIndex }) ?? true {
            if base.hasSuffix("?") { base.removeLast() }
            return String(base + fragment)
        }
        if let question = base.firstIndex(of: "?") {
            let query = base[base.index(after: question)...]
            separator = query.isEmpty || query.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return base + separator + lowercasingEscapes(data) + fragment
    }

    /// `text` with the hexadecimal digits of each `%XX` in lower case; a `%` not followed by two hexadecimal digits
    /// stays as it is.
    static func lowercasingEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit {
                for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
                    bytes[index + offset] += 0x20
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A note for each data piece read from a file whose text the suite holds.
    private func inlinedNotes(because reason: String) -> [SuiteDocument.Note] {
        data.compactMap { piece in
            guard let source = piece.source else { return nil }
            let why = piece.isEncoded ? "curl sends it URL-encoded" : reason
            return inlinedNote(source, at: piece.position, because: why)
        }
    }

    /// The path and query of an absolute URL (`/users?page=2`), or the URL when it has no `://`.
    static func path(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(where: { "/?".contains($0) }) else { return "/" }
        return String(rest[slash...])
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit.
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// The path parts of server URLs and request URLs: the contract compares paths only, never hosts.
enum ServerURL {
    /// The decoded segments of the path of a server URL (absolute, or relative such as `/v2` or `v2`), its
    /// `{variables}` replaced by `variables`; `/` and an empty path are no segments.
    static func pathSegments(of url: String, variables: [String: String]) -> [String] {
        var text = substitute(url, variables)
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<end]) }
        let path = split(text).path
        return path.split(separator: "/").compactMap { segment in
            segment == "." ? nil : PercentEncoding.decodeLeniently(segment)
        }
    }

    /// A URL (`http://host:8080/v2/pets?x=1`, `//host/pets`, `/pets?x=1`) split into its path and its query (without
    /// `?`); the fragment dropped.
    static func split(_ url: some StringProtocol) -> (path: Substring, query: Substring?) {
        let whole = Substring(url)
        let utf8 = whole.utf8
        // Over the bytes in place when the text is contiguous (a native string: this runs for every request a
        // contract routes), else through the view's indices; UTF-8 positions are positions of the text.
        // The parts are cut from the UTF-8 view: at ASCII delimiters, so no character boundaries need checking.
        if let parts = utf8.withContiguousStorageIfAvailable({ bytes in Self.parts(bytes) }) {
            let index = { (offset: Int) in utf8.index(utf8.startIndex, offsetBy: offset) }
            return (
                Substring(utf8[index(parts.path.lowerBound)..<index(parts.path.upperBound)]),
                parts.query.map { Substring(utf8[index($0.lowerBound)..<index($0.upperBound)]) }
            )
        }
        let parts = Self.parts(utf8)
        return (Substring(utf8[parts.path]), parts.query.map { Substring(utf8[$0]) })
    }

    /// Where the path and the query (without `?`) of a URL's bytes are; the fragment dropped.
    private static func parts<Bytes: Collection<UInt8>>(
        _ bytes: Bytes
    ) -> (
        path: Range<Bytes.Index>, query: Range<Bytes.Index>?
    ) {
        var end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var query: Range<Bytes.Index>?
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = bytes.index(after: question)..<end
            end = question
        }
        var start = bytes.startIndex
        if let colon = ReferenceText.schemeColon(bytes[..<end]) { start = bytes.index(after: colon) }
        let slash = UInt8(ascii: "/")
        // `//` compared byte by byte: no array of the two bytes for every URL.
        let second = start == end ? end : bytes.index(after: start)
        if second != end, bytes[start] == slash, bytes[second] == slash {
            let afterSlashes = bytes.index(start, offsetBy: 2)
            start = bytes[afterSlashes..<end].firstIndex(of: slash) ?? end
        }
        return (start..<end, query)
    }

    /// The segments of `url`'s path (``segments(of:)`` of ``split(_:)``'s path), and whether the path holds a `%`.
    static func pathSegments(ofURL url: String) -> (segments: [Substring], hasPercent: Bool) {
        let path = split(url).path
        return (segments(of: path), PercentEncoding.contains(UInt8(ascii: "%"), in: path))
    }

    /// The segments of a path between its `/`s, after one leading `/`: `/a//b/` is `a`, ``, `b`, ``; the empty
    /// path and `/` are one empty segment. Cut at the `/` bytes (a URL's path is ASCII; no character boundaries are
    /// looked for).
    static func segments(of path: Substring) -> [Substring] {
        let utf8 = path.utf8
        // Over the bytes in place when the text is contiguous (a native string: this runs for every request a
        // contract routes), the segments cut at offsets from the start.
        let cuts = utf8.withContiguousStorageIfAvailable { bytes -> [Substring] in
            let slash = UInt8(ascii: "/")
            var start = bytes.first == slash ? 1 : 0
            let segment = { (from: Int, to: Int) in
                Substring(utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
            }
            var segments: [Substring] = []
            // One allocation: as many segments as slashes after the first, plus one.
            var slashes = 0
            for position in start..<bytes.count where bytes[position] == slash { slashes += 1 }
            segments.reserveCapacity(slashes + 1)
            for position in start..<bytes.count where bytes[position] == slash {
                segments.append(segment(start, position))
                start = position + 1
            }
            segments.append(segment(start, bytes.count))
            return segments
        }
        if let cuts { return cuts }
        let slash = UInt8(ascii: "/")
        var start = utf8.startIndex
        if start < utf8.endIndex, utf8[start] == slash { start = utf8.index(after: start) }
        var segments: [Substring] = []
        var position = start
        while position < utf8.endIndex {
            if utf8[position] == slash {
                segments.append(Substring(utf8[start..<position]))
                start = utf8.index(after: position)
            }
            position = utf8.index(after: position)
        }
        segments.append(Substring(utf8[start..<utf8.endIndex]))
        return segments
    }

    static func substitute(_ url: String, _ variables: [String: String], keepingUnknown: Bool = false) -> String {
        guard url.contains("{") else { return url }
        var result = ""
        var rest = Substring(url)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += variables[name] ?? (keepingUnknown ? String(rest[open...close]) : "")
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

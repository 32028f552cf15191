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
        // Byte by byte (UTF-8 positions are positions of the text): this runs for every request a contract routes.
        let whole = Substring(url)
        let bytes = whole.utf8
        var end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var query: Substring?
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = whole[bytes.index(after: question)..<end]
            end = question
        }
        var start = bytes.startIndex
        if let colon = ReferenceText.schemeColon(bytes[..<end]) { start = bytes.index(after: colon) }
        let slash = UInt8(ascii: "/")
        if bytes[start..<end].starts(with: [slash, slash]) {
            let afterSlashes = bytes.index(start, offsetBy: 2)
            start = bytes[afterSlashes..<end].firstIndex(of: slash) ?? end
        }
        return (whole[start..<end], query)
    }

    /// `url` with each `{variable}` replaced by its value in `variables`; one without a value becomes empty, or stays
    /// as written with `keepingUnknown`.
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

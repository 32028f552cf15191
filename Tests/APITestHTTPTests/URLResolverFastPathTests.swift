import Testing

@testable import APITestHTTP

/// `URLResolver`'s shortcuts held to the general algorithm: the one-pass split of a URL into its parts against the
/// three scans it replaced (`ReferenceComponents`), and `resolve(_:againstBase:)`'s fast paths (a plain relative path,
/// an absolute path, an absolute URL) against `resolveGenerally` with the base parsed afresh, results and errors alike.
@Suite struct URLResolverFastPathTests {
    static let references: [String] = [
        "", "/", "//", "///", "/items/1.json", "/a?b=1", "/a?b/.c", "/a?b/../c", "/a/./b", "/a/../b", "/.", "/..",
        "/.hidden", "/a/.", "//h/x", "//h", "//h?q", "/a#f", "/a?q#f", "/a#f?q", "?q", "#f", "?", "#", "/?", "/#",
        "/é/ü?x=ü", "/a b", "/a%2Fb%zz", "/a:b", "/a:b/c:d", " /padded ", "\u{3000}/ws\u{3000}", "\t/tab\n",
        "users", "users?x=1", "users#f", "a/b/../c", ".", "..", "./a", "http://h/x", "HTTP://H/a/../b",
        "https://[::1]:8443/p?q#f", "http://[fe80::1%25eth0]/x", "mailto:x", "a:b", "1a:b", "a+b-c.d:e", "a_b:c",
        "/\u{301}x", "\t/\u{301}", "/\u{200D}a", "/.\u{301}", "/é\u{301}", "/a?b=\u{301}", "http://h/\u{301}x",
        "/a?b?c#d#e", "http:x", "http:", ":", ":/x", "/\u{0}", "/\u{7F}", "/\u{1F600}", "\u{1F600}", "/a%20b",
        "/a\"<>\\^`{|}", "/" + String(repeating: "a", count: 10_000), "/" + String(repeating: "é/", count: 1_000),
        "/" + String(repeating: "x?", count: 500) + "#" + String(repeating: "y", count: 500),
        "http://h", "http://h?q", "http://h#f", "http://h/a/./b", "https://h:1/p?q=/./", "http://u:p@h/x", "http://h/é",
        "http://?x", "http://#f", "http://h x/p", "https://h/", "http://h/p#", "http://h//x", "http://h/.", "https:/x",
        "http:/x", "http://é.example/a?b=é", "http://h/" + String(repeating: "a/", count: 5_000),
    ]

    static let bases: [String?] = [
        nil, "http://h", "http://h/", "http://h/api", "http://h/api/", "HTTP://H/api", "https://h:8443/x?y#z",
        "http://[::1]:8080/p", "http://h/x y/", "http://h/é/", "http://h/{v}/", "http://h\u{2003}", " http://h/ ",
        "http://h/\u{3000}", "http:///x", "http://", "ftp://h/x", "h/x", "", "http://h/a/../b", "http://u:p@h/",
        "mailto:x", "http://h/a/./", "http://h?q", "http://h#f", "http://é.example/", "http://h:80",
    ]

    @Test func theFastPathsAgreeWithTheGeneralResolution() {
        for base in Self.bases {
            let resolved = base.map(URLResolver.Base.init)
            for reference in Self.references {
                let fast = outcome { () throws(HTTPError) in try URLResolver.resolve(reference, againstBase: resolved) }
                let general = outcome { () throws(HTTPError) in
                    try URLResolver.resolveGenerally(
                        reference.trimmingWhitespace(), reference: reference, base: base,
                        baseParts: base.flatMap(URLResolver.baseParts))
                }
                #expect(fast == general, "\(reference.debugDescription) against \(base.debugDescription)")
            }
        }
    }

    @Test func anAbsolutePathTakesTheFastPath() {
        #expect(URLResolver.Base("http://127.0.0.1:18099").origin == "http://127.0.0.1:18099")
        #expect(URLResolver.Base("HTTPS://H:1/a/b?q").origin == "https://H:1")
        #expect(URLResolver.Base("http://h/x y/").originIsEncoded)
        #expect(!URLResolver.Base("http://é/").originIsEncoded)
        #expect(URLResolver.Base("ftp://h/").origin == nil)
        #expect(URLResolver.Base("http:///x").origin == nil)
        #expect(URLResolver.Base("h/x").origin == nil)
        #expect(URLResolver.absolutePath("/items/1.json") == .encoded)
        #expect(URLResolver.absolutePath("/a?b/./c") == .encoded)
        #expect(URLResolver.absolutePath("/a/é") == .toEncode)
        // A non-ASCII byte right after the slash may join it into one character: the general resolution decides.
        for path in ["", "a", "//h", "/a#f", "/./a", "/a/..", "?q", "/é", "/\u{301}x"] {
            #expect(URLResolver.absolutePath(path) == nil, "\(path)")
        }
        #expect(URLResolver.plainAbsoluteURL("http://127.0.0.1:18099/items/1.json") == .encoded)
        #expect(URLResolver.plainAbsoluteURL("https://h/a?b=/./") == .encoded)
        #expect(URLResolver.plainAbsoluteURL("http://é/a") == .toEncode)
        #expect(URLResolver.plainAbsoluteURL("http://h/é") == .toEncode)
        for url in ["HTTP://h/", "http://h", "http://h?q", "http:///x", "http://h/a#f", "http://h/./a", "ftp://h/"] {
            #expect(URLResolver.plainAbsoluteURL(url) == nil, "\(url)")
        }
    }

    @Test func theOnePassSplitAgreesWithTheScans() {
        for text in Self.references + Self.bases.compactMap(\.self) {
            let parts = URLResolver.Components(text)
            let reference = ReferenceComponents(text)
            #expect(parts.scheme == reference.scheme, "\(text.debugDescription)")
            #expect(parts.authority == reference.authority, "\(text.debugDescription)")
            #expect(parts.path == reference.path, "\(text.debugDescription)")
            #expect(parts.query == reference.query, "\(text.debugDescription)")
            #expect(parts.fragment == reference.fragment, "\(text.debugDescription)")
        }
    }

    private func outcome(_ body: () throws(HTTPError) -> String) -> Result<String, HTTPError> {
        do {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}

/// `URLResolver.Components.init` as it was before its one pass: three scans of the string's `utf8` view.
private struct ReferenceComponents {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        let bytes = text.utf8
        var end = bytes.endIndex
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(text[bytes.index(after: hash)...])
            end = hash
        }
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = String(text[bytes.index(after: question)..<end])
            end = question
        }
        var start = bytes.startIndex
        if let colon = bytes[..<end].firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }),
            bytes[colon] == UInt8(ascii: ":"), Self.isScheme(bytes[start..<colon])
        {
            scheme = String(text[start..<colon]).lowercased()
            start = bytes.index(after: colon)
        }
        let rest = bytes[start..<end]
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authorityStart = bytes.index(start, offsetBy: 2)
            let authorityEnd = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            authority = String(text[authorityStart..<authorityEnd])
            start = authorityEnd
        }
        path = String(text[start..<end])
    }

    static func isScheme(_ bytes: Substring.UTF8View) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }
}

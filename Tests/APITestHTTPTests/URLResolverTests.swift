import APITestHTTP
import APITestSupport
import Testing

@Suite struct URLResolverTests {
    @Test(arguments: [
        // AFNetworking: the base path gets a terminal slash before resolution.
        ("users", "http://h/api", "http://h/api/users"),
        ("users", "http://h/api/", "http://h/api/users"),
        ("users/1", "http://h:8080/api/v1", "http://h:8080/api/v1/users/1"),
        ("/users", "http://h/api/", "http://h/users"),
        ("../users", "http://h/api/v1/", "http://h/api/users"),
        ("./a/./b/../c", "http://h/x/", "http://h/x/a/c"),
        ("?page=2", "http://h/api/list?page=1", "http://h/api/list/?page=2"),
        ("users?x=1", "http://h/api", "http://h/api/users?x=1"),
        ("//other:81/p", "http://h/api", "http://other:81/p"),
        ("https://elsewhere.example/abs", "http://h/api", "https://elsewhere.example/abs"),
        ("", "http://h/api", "http://h/api/"),
        ("users#frag", "http://h/api", "http://h/api/users"),
        ("users/a:b", "http://h/api", "http://h/api/users/a:b"),
        ("items/1.json", "http://h/", "http://h/items/1.json"),
        (".hidden/x/./y/..", "http://h/", "http://h/.hidden/x/"),
        ("a?q=http://x/#y", "http://h/", "http://h/a?q=http://x/"),
        // Bases the fast path leaves to the general algorithm.
        ("users", "http://h/api?x=1", "http://h/api/users"),
        ("users", "HTTPS://h/api", "https://h/api/users"),
        ("users", "http://h/a/../api", "http://h/api/users"),
        ("users", "http://h", "http://h/users"),
        ("sp ace/é", "http://h/api", "http://h/api/sp%20ace/%C3%A9"),
    ])
    func resolvesAgainstBase(reference: String, base: String, expected: String) throws {
        #expect(try URLResolver.resolve(reference, against: base) == expected)
    }

    @Test func absoluteURLWithoutBase() throws {
        #expect(try URLResolver.resolve("http://127.0.0.1:9/x", against: nil) == "http://127.0.0.1:9/x")
        #expect(try URLResolver.resolve("HTTP://h", against: nil) == "http://h/")
    }

    @Test func relativeURLWithoutBaseIsAnError() {
        #expect(throws: HTTPError.self) { try URLResolver.resolve("users", against: nil) }
        do {
            _ = try URLResolver.resolve("users", against: nil)
        } catch {
            #expect(error.reason == .invalidRequest)
            #expect(error.message == "relative URL 'users' needs a baseURL")
        }
    }

    @Test func rejectsOtherSchemesAndMissingHosts() {
        #expect(throws: HTTPError.self) { try URLResolver.resolve("ftp://h/x", against: nil) }
        #expect(throws: HTTPError.self) { try URLResolver.resolve("file:///etc/passwd", against: nil) }
        #expect(throws: HTTPError.self) { try URLResolver.resolve("http:///x", against: nil) }
    }

    @Test func encodesCharactersAURLCannotCarry() throws {
        #expect(try URLResolver.resolve("a b/ü?q=x y", against: "http://h/") == "http://h/a%20b/%C3%BC?q=x%20y")
        // Existing escapes and reserved characters are kept.
        #expect(try URLResolver.resolve("a%2Fb?x=[1]&y=$", against: "http://h/") == "http://h/a%2Fb?x=[1]&y=$")
    }

    /// Every ASCII byte and a few non-ASCII characters, in a path and in a base: printable ASCII other than
    /// `"<>\^`{|}` stays as it is, everything else is percent-encoded (upper-case hex, one escape a UTF-8 byte).
    @Test func encodesExactlyTheBytesAURLCannotCarry() throws {
        let unsafe = Set("\"<>\\^`{|}".utf8)
        func expected(_ text: String) -> String {
            text.utf8.map { byte in
                byte > 0x20 && byte < 0x7F && !unsafe.contains(byte)
                    ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }.joined()
        }
        let characters = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["é", "€", "😀", "\u{7FF}"]
        for character in characters {
            #expect(URLResolver.percentEncodeInvalidCharacters("x" + character) == "x" + expected(character))
        }
        // A base with a character to encode (the fast path's base check passes it on to the encoder).
        #expect(try URLResolver.resolve("a", against: "http://h/{v}|é/") == "http://h/%7Bv%7D%7C%C3%A9/a")
        // Bases the fast path must leave to the general algorithm: a dot segment, a space, a control byte, a query.
        #expect(try URLResolver.resolve("a", against: "http://h/x/./y/") == "http://h/x/y/a")
        #expect(try URLResolver.resolve("a", against: "http://h/x/../y") == "http://h/y/a")
        #expect(try URLResolver.resolve("a", against: "http://h/x y/") == "http://h/x%20y/a")
        #expect(try URLResolver.resolve("a", against: "http://h/x\ty/") == "http://h/x%09y/a")
        #expect(try URLResolver.resolve("a", against: "http://h/x#f") == "http://h/x/a")
        #expect(try URLResolver.resolve("a", against: "http://h.example") == "http://h.example/a")
    }

    /// A request serializer finds its base URL's facts once, when the base is set (at init or later), and a plain
    /// path resolves against them as against the base's text: whether the base or the path needs encoding.
    @Test func aSerializersBaseIsReadWhenSet() throws {
        for (base, path, expected) in [
            ("http://h/api", "users/1", "http://h/api/users/1"),
            ("http://h/api/", "sp ace/é", "http://h/api/sp%20ace/%C3%A9"),
            ("http://h/{v}/", "a", "http://h/%7Bv%7D/a"),
            ("http://h/é", "a|b", "http://h/%C3%A9/a%7Cb"),
            ("http://h/a?q=1", "b", "http://h/a/b"),
        ] {
            #expect(try RequestSerializer(baseURL: base).request(url: path).url == expected)
            #expect(try URLResolver.resolve(path, against: base) == expected)
            var changed = RequestSerializer(baseURL: "http://other/x/")
            changed.baseURL = base
            #expect(try changed.request(url: path).url == expected)
        }
        var removed = RequestSerializer(baseURL: "http://h/")
        removed.baseURL = nil
        #expect(throws: HTTPError.self) { try removed.request(url: "users") }
    }

    @Test func appendsQueryAfterExistingOne() {
        #expect(URLResolver.appendingQuery("b=2", to: "http://h/p?a=1") == "http://h/p?a=1&b=2")
        #expect(URLResolver.appendingQuery("b=2", to: "http://h/p") == "http://h/p?b=2")
        #expect(URLResolver.appendingQuery("", to: "http://h/p") == "http://h/p")
    }
}

extension String {
    /// Two hex digits: a leading zero for a single one.
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }
}

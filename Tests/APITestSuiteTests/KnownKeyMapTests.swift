import APITestSupport
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The loader reads a map of known keys (a test, a request, `expect`) by its keys' bytes, without the entries
/// `mapping(_:for:)` makes: it must read exactly the maps whose entries and diagnostics that general way gives
/// unchanged, and leave every other map to it.
@Suite("Maps of known keys")
struct KnownKeyMapTests {
    /// A context over `text`, a one-document YAML map, and its root.
    private static func context(_ text: String) throws -> (SuiteParseContext, YAMLNode) {
        let composed = try YAMLComposer.compose(text)
        let root = try #require(composed.root)
        let context = SuiteParseContext(
            file: "/tmp/t.yaml", directory: "/tmp", document: composed.document, root: root, source: text,
            environment: [:], overrides: [:])
        return (context, root)
    }

    /// What the fast path reads of `text` as `expect`'s keys (`nil` when it leaves the map), and the entries the
    /// general path gives.
    private static func bothWays(_ text: String) throws -> (fast: [String]?, general: [String]?) {
        let (context, root) = try context(text)
        var fast: [String] = []
        let read = context.forEachKnownEntry(of: root, ExpectParser.Key.self) { entry in
            let key = context.document.scalar(entry.keyNode)?.string ?? "?"
            #expect(key == entry.key.rawValue)
            fast.append("\(entry.key.rawValue)=\(context.document.scalar(entry.value)?.string ?? "?")")
        }
        let general = context.mapping(root, for: "expect").map { entries in
            entries.map { "\($0.key)=\(context.document.scalar($0.value)?.string ?? "?")" }
        }
        return (read ? fast : nil, general)
    }

    @Test func aMapOfKnownPlainKeysIsReadInOrderAsTheGeneralWayReadsIt() throws {
        let both = try Self.bothWays("{url: a, status: 200, body: b, md5: c}")
        #expect(both.fast == ["url=a", "status=200", "body=b", "md5=c"])
        #expect(both.fast == both.general)
        let empty = try Self.bothWays("{}")
        #expect(empty.fast == [])
        #expect(empty.general == [])
    }

    @Test func everyOtherMapIsLeftToTheGeneralWay() throws {
        for text in [
            "{status: 200, statsu: 201}", // a key that is not expect's
            "{'status': 200}", // a quoted key carries the str tag
            "{!!str status: 200}", // a tagged key
            "{<<: {status: 200}, url: a}", // a merge key
            "{[status]: 200}", // a list key
            "[status]", // a list
            "status", // a scalar
            "~", // null, which the general way reads as an empty map
        ] {
            #expect(try Self.bothWays(text).fast == nil, "\(text)")
        }
        let many = "{" + (0..<33).map { "k\($0): 1" }.joined(separator: ", ") + "}"
        #expect(try Self.bothWays(many).fast == nil)
    }

    @Test func aMapAtTheEntryLimitIsRead() throws {
        let keys = ExpectParser.Key.allCases.prefix(SuiteParseContext.knownEntryLimit)
        let text = "{" + keys.map { "\($0.rawValue): 1" }.joined(separator: ", ") + "}"
        let both = try Self.bothWays(text)
        #expect(both.fast?.count == keys.count)
        #expect(both.fast == both.general)
    }

    @Test func knownEntriesNameEachKeyAsWritten() throws {
        let (context, root) = try Self.context("{method: GET, url: a, headers: {A: b}}")
        let entries = try #require(context.knownEntries(of: root, RequestParser.Key.self))
        #expect(entries.map(\.key) == ["method", "url", "headers"])
        #expect(entries.map { context.document.mark(of: $0.keyNode).column } == [2, 15, 23])
        #expect(context.knownEntries(of: root, TestParser.Key.self) == nil)
        #expect(context.diagnostics.isEmpty)
    }

    /// The constructs read this way still report what the general way reports, in the same order, when a map is
    /// left to it.
    @Test func diagnosticsOfMapsLeftToTheGeneralWayAreUnchanged() {
        let suite = """
            baseURL: http://h/
            tests:
              - name: a
                reqeust: {url: x}
              - name: b
                request: {url: x, 'metod': GET, <<: {timeout: 1s}}
                expect: {status: 200, statsu: 201, 'json': {$.a: 1}}
              - name: c
                request: {url: x}
                expect: !!map {status: 999}
              - 'name': d
                request: {url: x}
                expect: ~
            """
        #expect(
            errors(suite) == [
                "suites/test.yaml:4:5: error: unknown key 'reqeust' in test; did you mean 'request'?",
                "suites/test.yaml:6:23: error: unknown key 'metod' in request; did you mean 'method'?",
                "suites/test.yaml:7:27: error: unknown key 'statsu' in expect; did you mean 'status'?",
                "suites/test.yaml:10:28: error: invalid status '999'; use a code like 200, a class like 2xx, or a list of them",
            ])
    }

    /// A status of three plain digits is read from its bytes; every other spelling as before.
    @Test func statusCodesReadFromTheirBytesAndOtherwise() throws {
        func patterns(_ status: String) throws -> [StatusExpectation.Pattern]? {
            let suite =
                "baseURL: http://h/\ntests:\n  - name: t\n    request: {url: a}\n    expect: {status: \(status)}\n"
            return try loadSuite(suite).tests[0].steps[0].expect.status?.patterns
        }
        #expect(try patterns("100") == [.code(100)])
        #expect(try patterns("599") == [.code(599)])
        #expect(try patterns("[200, 204]") == [.code(200), .code(204)])
        #expect(try patterns("!!int 201") == [.code(201)])
        #expect(try patterns("\"202\"") == [.code(202)])
        #expect(try patterns("&s 203") == [.code(203)])
        #expect(try patterns("2xx") == [.codeClass(2)])
        let hint = "use a code like 200, a class like 2xx, or a list of them"
        let suite =
            "baseURL: http://h/\ntests:\n  - name: t\n    request: {url: a}\n    expect: {status: [099, 600, 5:0, 1a0, !!null 200]}\n"
        #expect(
            errors(suite) == [
                "suites/test.yaml:5:23: error: invalid status '099'; \(hint)",
                "suites/test.yaml:5:28: error: invalid status '600'; \(hint)",
                "suites/test.yaml:5:33: error: invalid status '5:0'; \(hint)",
                "suites/test.yaml:5:38: error: invalid status '1a0'; \(hint)",
                "suites/test.yaml:5:43: error: invalid status '200'; \(hint)",
            ])
    }

    @Test func headerNamesAreTokens() {
        #expect(SuiteParseContext.isToken("X-N"))
        #expect(SuiteParseContext.isToken("!#$%&'*+-.^_`|~09azAZ"))
        for name in ["", "X N", "X:N", "é", "X\u{7F}", "X\u{0}", "(", ")", "/", "@", "[", "]", "{", "}", "\"", ","] {
            #expect(!SuiteParseContext.isToken(name), "\(name)")
        }
        // Every ASCII byte against the RFC 9110 definition.
        let symbols = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8(0)..<128 {
            let isTokenByte =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || symbols.contains(byte)
            #expect(SuiteParseContext.isToken(String(decoding: [byte], as: UTF8.self)) == isTokenByte, "\(byte)")
        }
    }
}

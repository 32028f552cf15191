import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Testing

/// Every scalar the emitter writes reads back through the suite loader as the value written: strings YAML would
/// take for something else, indicators, escapes, Unicode, exact numbers, nested and empty collections, in test
/// names, header values and JSON bodies (values and keys).
struct YAMLEmitterTests {
    /// Strings that plain YAML would read as another type, or not at all.
    static let awkwardStrings: [String] = [
        "", " ", "true", "True", "FALSE", "yes", "No", "on", "OFF", "y", "null", "Null", "~", "123", "-7", "+3", "1.5",
        ".5", "1e3", "0x1F", "0o17", ".inf", "-.Inf", ".NaN", "2XX", "2025-01-01", "12:30", "1_000", "-", "- a", "?",
        "? x", ":", "a: b", "a:b", "key:", "a #b", "a#b", "#x", "[a]", "{a}", "a,b", "a]", "}", "'q'", "\"dq\"",
        "it's", "back\\slash", "%percent", "@at", "`tick", "!bang", "&anchor", "*alias", "|pipe", ">gt", "<<", "=",
        " lead", "trail ", "tab\there", "line\nbreak", "two\n\nbreaks", "cr\rx", "nul\u{0}x", "bell\u{7}", "del\u{7F}",
        "c1\u{85}next", "nbsp\u{A0}x", "ls\u{2028}ps\u{2029}", "\u{FEFF}bom", "é ünïcödé", "日本語", "emoji 🎉",
        "a/b?c=d&e", "$.json.path", "x: {y}", "--- doc", "...", "...more", "% directive", "../api.yaml", "./",
        ".hidden", ".a", ".e5", "rtl\u{202E}gnp.exe", "\u{2066}iso\u{2069} \u{202A}lre\u{202C}", "alm\u{061C}x",
        "lrm\u{200E}rlm\u{200F}", "zw\u{200B}sp\u{200D}j", "soft\u{AD}hyphen", "tag\u{E0041}", "filler\u{3164}",
        "emoji ❤\u{FE0F}",
    ]

    /// `value` written as YAML at the top level of a document, as `key: value`.
    func document(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }

    /// A suite whose test `name`s, header values and JSON body are written by the emitter.
    func suite(names: [String], headers: [String], body: JSONValue) -> String {
        var lines = ["name: round trip", "baseURL: http://127.0.0.1:1/", "tests:"]
        for (index, name) in names.enumerated() {
            var request = JSONObject([(key: "url", value: "x")])
            if index == 0 {
                var fields = JSONObject()
                for (offset, value) in headers.enumerated() { fields["X-H\(offset)"] = .string(value) }
                request["headers"] = .object(fields)
                request["json"] = body
            }
            lines += YAMLEmitter.itemLines(
                .object(JSONObject([(key: "name", value: .string(name)), (key: "request", value: .object(request))])),
                indent: 2)
        }
        return document(lines)
    }

    /// A loaded JSON body (all literal) as JSON.
    func json(_ value: TemplateValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .double(let number): return .double(number)
        case .number(let number): return .number(number)
        case .string(let template): return .string(template.source)
        case .array(let items): return .array(items.map(json))
        case .object(let members): return .object(JSONObject(members.map { (key: $0.key, value: json($0.value)) }))
        }
    }

    @Test func everyScalarRoundTripsThroughTheSuiteLoader() throws {
        let strings = Self.awkwardStrings
        // A header value holds no control character but the tab (the loader refuses them, RFC 9110 5.5).
        let headerSafe = strings.filter {
            !$0.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
        }
        let numbers: [JSONValue] = [
            0, -1, .integer(.max), .integer(.min), 1.5, -0.25, 1.5e300, .double(.leastNonzeroMagnitude),
            .number(JSONNumber(text: "12345678901234567890")!),
            .number(JSONNumber(text: "0.10000000000000000001")!), true, false, nil,
        ]
        var members = strings.enumerated().map { (key: $1, value: JSONValue.string(strings[(strings.count - 1 - $0)])) }
        members.append((key: "numbers", value: .array(numbers)))
        members.append((key: "nested", value: [[1, [2, []]], [:], ["a": [:], "b": [[]]], [["x": ["y": "z"]]]]))
        let body = JSONValue.object(JSONObject(members))
        let names = strings.filter { !$0.isEmpty && !$0.allSatisfy(\.isWhitespace) }
        let text = suite(names: names, headers: headerSafe, body: body)

        let loaded: Suite
        do {
            loaded = try SuiteLoader().load(source: text, file: "/generated/round-trip.yaml")
        } catch {
            Issue.record("the emitted suite does not load:\n\(error.render())\n\(text)")
            return
        }
        #expect(loaded.tests.map(\.name) == names)
        let request = try #require(loaded.tests.first?.steps.first?.request)
        #expect(request.headers.map(\.value.source) == headerSafe)
        guard case .json(let loadedBody)? = request.body else {
            Issue.record("no JSON body")
            return
        }
        let read = json(loadedBody)
        #expect(read == body)
        // Equal objects may differ in order: the members come back in the order written.
        #expect(read.objectValue?.members.map(\.key) == body.objectValue?.members.map(\.key))
    }

    @Test func plainWhenSafeQuotedOtherwise() {
        #expect(YAMLEmitter.string("findPets") == "findPets")
        #expect(YAMLEmitter.string("find pet by id") == "find pet by id")
        #expect(YAMLEmitter.string("GET /pets/{id}") == "\"GET /pets/{id}\"")
        #expect(YAMLEmitter.string("pets?limit=1") == "pets?limit=1")
        #expect(YAMLEmitter.string("../api/openapi.yaml") == "../api/openapi.yaml")
        #expect(YAMLEmitter.string(".inf") == "\".inf\"")
        #expect(YAMLEmitter.string("true") == "\"true\"")
        #expect(YAMLEmitter.string("200") == "\"200\"")
        #expect(YAMLEmitter.string("{{ env.TOKEN }}") == "\"{{ env.TOKEN }}\"")
        #expect(YAMLEmitter.string("a\u{7}b\u{2028}") == "\"a\\x07b\\L\"")
        #expect(YAMLEmitter.string("\u{FEFF}") == "\"\\uFEFF\"")
    }

    @Test func blocksAndComments() {
        let value: JSONValue = ["a": [1, ["b": "c", "d": []], [2]], "e": [:]]
        #expect(
            YAMLEmitter.lines(key: "root", value: value, indent: 2) == [
                "  root:", "    a:", "      - 1", "      - b: c", "        d: []", "      -", "        - 2",
                "    e: {}",
            ])
        #expect(YAMLEmitter.comment("one\ntwo\u{1B}[31m", indent: 2) == ["  # one", "  # two [31m"])
    }

    @Test func invisibleFormatCharactersAreWrittenAsEscapes() {
        // A right-to-left override makes `"rtl\u{202E}gnp.exe"` read as `rtlexe.png` in an editor: written as an
        // escape, the file reads as it parses (in values, keys and comments).
        let bidiControls: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in bidiControls + [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E, 0x3164] {
            let scalar = Unicode.Scalar(value)!
            let escape =
                "\\u" + String(repeating: "0", count: 4 - String(value, radix: 16).count)
                + String(value, radix: 16, uppercase: true)
            let text = "a\(Character(scalar))b"
            #expect(YAMLEmitter.string(text) == "\"a\(escape)b\"", "U+\(String(value, radix: 16))")
            #expect(YAMLEmitter.key(text) == "\"a\(escape)b\"")
            #expect(YAMLEmitter.comment("note \(text)") == ["# note a\(escape)b"])
        }
        #expect(YAMLEmitter.string("tag\u{E0041}") == #""tag\U000E0041""#)
        #expect(YAMLEmitter.string("soft\u{AD}hyphen") == #""soft\xADhyphen""#)
        // Visible text, variation selectors included, stays as it is.
        #expect(YAMLEmitter.string("مرحبا ❤\u{FE0F} 日本") == "مرحبا ❤\u{FE0F} 日本")
        #expect(YAMLEmitter.comment("مرحبا") == ["# مرحبا"])
    }
}

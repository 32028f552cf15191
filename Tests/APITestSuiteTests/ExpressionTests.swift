import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// The expression grammar of placeholders and `when:`: what it computes, the official vectors of its digests, and
/// the located errors of what it refuses when the suite loads.
struct ExpressionTests {
    static let here = SourceLocation(file: "s.yaml", line: 1, column: 1)

    /// `text` rendered as a template in `context`.
    static func render(_ text: String, _ context: TemplateContext = TemplateContext()) throws -> String {
        try Template(parsing: text, location: here).render(context)
    }

    /// The typed value of a one-placeholder template.
    static func value(_ text: String, _ context: TemplateContext = TemplateContext()) throws -> JSONValue {
        try Template(parsing: text, location: here).renderValue(context)
    }

    static func holds(_ condition: String, _ context: TemplateContext = TemplateContext()) throws -> Bool {
        try ExpressionParser.parse(condition).holds(context, source: condition, location: here)
    }

    @Test func digestsMatchTheirOfficialVectors() throws {
        // FIPS 180-2 / RFC 1321 "abc" vectors, RFC 4231 test case 2 for HMAC-SHA256.
        #expect(
            try Self.render(#"{{ sha256("abc") }}"#)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try Self.render(#"{{ sha1("abc") }}"#) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(try Self.render(#"{{ md5("abc") }}"#) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(
            try Self.render(#"{{ sha256("") }}"#) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            try Self.render(#"{{ hmacSHA256("Jefe", "what do ya want for nothing?") }}"#)
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            try Self.render(#"{{ hmacSHA256("Jefe", "what do ya want for nothing?", "base64") }}"#)
                == "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=")
    }

    @Test func textAndConversionFunctions() throws {
        var context = TemplateContext()
        context.set("name", .string("  Ann Lee  "), secret: false)
        context.set("ids", .array([.integer(3), .integer(5)]), secret: false)
        context.set("n", .string("42"), secret: false)
        #expect(try Self.render("{{ base64Encode(\"a:b\") }}") == "YTpi")
        #expect(try Self.render("{{ base64Decode('YTpi') }}") == "a:b")
        #expect(try Self.render("{{ urlEncode(\"a b/ä\") }}") == "a%20b%2F%C3%A4")
        #expect(try Self.render("{{ urlDecode(\"a%20b%2F%C3%A4\") }}") == "a b/ä")
        #expect(try Self.render("{{ hex(\"AZ\") }}") == "415a")
        #expect(try Self.render("[{{ trim(name) }}]", context) == "[Ann Lee]")
        #expect(try Self.render("{{ upper(trim(name)) }}|{{ lower('ÄB') }}", context) == "ANN LEE|äb")
        #expect(try Self.render("{{ substring('abcdef', 2, 3) }}{{ substring('abcdef', 4) }}") == "cdeef")
        #expect(try Self.render(#"{{ replace("a-b-c", "-", "+") }}"#) == "a+b+c")
        #expect(try Self.render(#"{{ replace("v12", "v(\\d+)", "$1") }}"#) == "12")
        #expect(try Self.value("{{ length(ids) }}", context) == .integer(2))
        #expect(try Self.value("{{ toInt(n) + 1 }}", context) == .integer(43))
        #expect(try Self.value("{{ toFloat('2.5') }}") == .double(2.5))
        #expect(try Self.render("{{ jsonEncode(ids) }}", context) == "[3,5]")
        #expect(try Self.render("{{ toString(ids) }}", context) == "[3,5]")
        #expect(try Self.render("{{ default(missing, 'none') }}") == "none")
        #expect(try Self.render("{{ default(n, 'none') }}", context) == "42")
        #expect(try Self.render("{{ 'id-' + toString(length(ids)) }}", context) == "id-2")
    }

    @Test func timeAndRandomness() throws {
        #expect(try Self.render("{{ dateAdd('2026-01-31', 'P1M') }}") == "2026-02-28")
        #expect(try Self.render("{{ dateAdd('2026-11-24', 'P1D') }}") == "2026-11-25")
        #expect(try Self.render("{{ dateAdd('2026-11-24T23:30:00Z', 'PT90M') }}") == "2026-11-25T01:00:00Z")
        #expect(try Self.render("{{ dateAdd('2026-11-24', '-P1W') }}") == "2026-11-17")
        #expect(try Self.render("{{ dateAdd('2026-11-24', 'PT12H') }}") == "2026-11-24T12:00:00Z")
        #expect(try Self.render("{{ dateAdd('2024-02-29T10:00:00.500Z', 'P1Y') }}") == "2025-02-28T10:00:00.500Z")
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year!
        #expect(try Self.render("{{ now('%Y') }}") == String(year))
        #expect(try Self.render("{{ now() }}").hasSuffix("Z"))
        guard case .integer(let unix) = try Self.value("{{ now('unix') }}") else {
            Issue.record("now('unix') is not an integer")
            return
        }
        #expect(abs(Double(unix) - Date().timeIntervalSince1970) < 5)
        let uuid = try Self.render("{{ uuid() }}")
        #expect(uuid.count == 36 && uuid == uuid.lowercased())
        for _ in 0..<50 {
            guard case .integer(let number) = try Self.value("{{ randomInt(3, 5) }}") else { return }
            #expect((3...5).contains(number))
        }
        let random = try Self.render("{{ randomString(24) }}")
        #expect(random.count == 24 && random.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test func conditions() throws {
        var context = TemplateContext(environment: ["STAGE": "prod", "N": "3"])
        context.set("count", .integer(2), secret: false)
        context.set("user.id", .null, secret: false)
        context.set("ids", .array([.integer(1), .integer(2)]), secret: false)
        context.set("email", .string("ann@example.com"), secret: false)
        #expect(try Self.holds("{{ count }} > 0", context))
        #expect(try !Self.holds("{{ user.id }} != null", context))
        #expect(try Self.holds(#"{{ env.STAGE }} == "prod""#, context))
        #expect(try Self.holds("env.N > 2 and count < env.N", context)) // numeric text against a number
        #expect(try Self.holds("not (count == 3) or false", context))
        #expect(try Self.holds("2 in ids and not (7 in ids)", context))
        #expect(try Self.holds(#"email matches "^[a-z]+@example\\.com$""#, context))
        #expect(try Self.holds("email exists and not (never.captured exists)", context))
        #expect(try !Self.holds("never.captured", context)) // an undefined variable is null: false
        #expect(try Self.holds("length(ids) == 2 and 'prod' in env.STAGE", context))
        #expect(throws: TemplateError.self) { try Self.holds("ids", context) }
        #expect(throws: TemplateError.self) { try Self.holds("ids < 3", context) }
    }

    @Test func runTimeErrorsNameTheExpressionAndTheValues() {
        var context = TemplateContext()
        context.set("token", .string("%%%"), secret: false)
        do {
            _ = try Self.render("{{ base64Decode(token) }}", context)
            Issue.record("decoding '%%%' must fail")
        } catch let error as TemplateError {
            #expect(error.message == #"in 'base64Decode(token)': base64Decode: "%%%" is not base64"#)
            #expect(error.location == Self.here)
        } catch {
            Issue.record("\(error)")
        }
        do {
            _ = try Self.render("{{ substring('ab', 5) }}")
            Issue.record("a start past the end must fail")
        } catch let error as TemplateError {
            #expect(error.message.contains("start 5 and length -3 are outside a text of 2 characters"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: TemplateError.self) { try Self.render("{{ sha256(missing) }}") }
    }

    // MARK: - Load-time errors

    func loadErrors(_ value: String) -> [String] {
        errors(
            "name: s\ntests:\n  - name: a\n    request:\n      url: \"http://x.test/\"\n      headers: {X: '\(value)'}\n"
        )
    }

    @Test func mistakesAreLocatedWithSuggestions() {
        #expect(
            loadErrors("{{ sha265(body) }}") == [
                "suites/test.yaml:6:24: error: unknown function 'sha265'; did you mean 'sha256'?"
            ])
        #expect(loadErrors("{{ hmacSHA256(a) }}").first?.contains("'hmacSHA256' takes 2 to 3 arguments, not 1") == true)
        #expect(loadErrors("{{ uuid(1) }}").first?.contains("'uuid' takes no arguments, not 1") == true)
        #expect(loadErrors("{{ [1, 2] < 3 }}").first?.contains("'<' compares numbers or strings, not lists") == true)
        #expect(loadErrors(#"{{ lower("abc) }}"#).first?.contains("the string is not closed") == true)
        #expect(loadErrors("{{ a = 1 }}").first?.contains("'=' is not an operator; write '==' to compare") == true)
        #expect(loadErrors("{{ a && b }}").first?.contains("write 'and'") == true)
        #expect(loadErrors("{{ 1 < 2 < 3 }}").first?.contains("comparisons do not chain") == true)
        #expect(loadErrors(#"{{ x matches "(" }}"#).first?.contains("invalid regular expression '('") == true)
        // A misspelt name keeps the message about names; an undefined variable in an expression is found too.
        #expect(loadErrors("{{ a b }}").first?.contains("invalid variable name 'a b'") == true)
        #expect(loadErrors("{{ sha256(tokn) }}").first?.contains("undefined variable 'tokn'") == true)
    }

    @Test func aDerivedValueOfASecretIsASecret() throws {
        let context = TemplateContext(environment: ["KEY": "k3y-secret"])
        let template = try Template(
            parsing: "{{ hmacSHA256(env.KEY, 'GET /x') }}|{{ upper('plain') }}", location: Self.here)
        let derived = template.derivedSecretTexts(context)
        #expect(derived == [try Self.render("{{ hmacSHA256(env.KEY, 'GET /x') }}", context)])
    }

    // MARK: - Fuzz

    /// A deterministic generator (SplitMix64) for the fuzz test.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// Thousands of texts made of the grammar's pieces and stray characters: each parses, or fails with an offset and
    /// length inside the text; what parses evaluates to a value or a located error, never a crash or a hang.
    @Test func randomTextsParseOrFailInsideTheText() throws {
        let pieces = [
            "a", "env.X", "user.id", "1", "-2.5", "1e3", "\"s\"", "'t'", "\"\\n\"", "(", ")", "[", "]", ",", "+", "==",
            "!=", "<", "<=", ">", ">=", "and", "or", "not", "in", "matches", "exists", "true", "false", "null",
            "sha256(", "length(", "default(", "hmacSHA256(", "nth(", "jsonpath(", "dateAdd(", "now(", "substring(",
            "{{", "}}", " ", "=", "!", "&&", "é", "\"", "'", "\\", "😀", "\t", "x-", "toInt(", "upper(",
        ]
        var generator = Generator(state: 0x5EED)
        var context = TemplateContext(environment: ["X": "7"])
        context.set("a", .integer(3), secret: false)
        context.set("user.id", .string("u1"), secret: false)
        var parsed = 0
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<(1 + generator.next(10)) { text += pieces[generator.next(pieces.count)] }
            let length = text.unicodeScalars.count
            do {
                let expression = try ExpressionParser.parse(text)
                parsed += 1
                do {
                    _ = try expression.evaluate(context, source: text, location: Self.here, undefinedIsNull: true)
                } catch {
                    #expect(error.location == Self.here, "\(text)")
                    #expect(!error.message.isEmpty)
                }
            } catch {
                #expect(error.offset >= 0 && error.offset <= length, "\(text): offset \(error.offset)")
                #expect(error.length >= 1 && error.offset + error.length <= length + 1, "\(text)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 100, "only \(parsed) of 5000 texts parsed: the generator makes too little that is valid")
    }
}

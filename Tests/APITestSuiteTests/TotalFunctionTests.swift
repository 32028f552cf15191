import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// Every function and operator of expressions is total on whatever a server sends: a value that cannot be computed
/// exactly is an error of the step (a `TemplateError`), never a trap that kills the run, a rounded number or bytes
/// made up.
struct TotalFunctionTests {
    /// `text`'s one placeholder evaluated with `values` as variables (as captures from a response).
    static func value(_ text: String, _ values: [String: JSONValue] = [:]) throws -> JSONValue {
        var context = TemplateContext()
        for (name, value) in values { context.set(name, value, secret: false) }
        return try ExpressionTests.value(text, context)
    }

    /// The message of the error `text` evaluates to, or nil when it evaluates.
    static func failure(_ text: String, _ values: [String: JSONValue] = [:]) -> String? {
        do {
            _ = try value(text, values)
            return nil
        } catch let error as TemplateError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Integer arithmetic on server values

    @Test func indexArithmeticNeverOverflows() throws {
        let extremes: [String: JSONValue] = [
            "min": .integer(.min), "max": .integer(.max), "minText": .string("-9223372036854775808"),
        ]
        // The old code trapped (SIGILL) on each of these.
        #expect(
            Self.failure("{{ substring('abc', min) }}", extremes)
                == "in 'substring('abc', min)': substring: start -9223372036854775808 is outside a text of 3 characters"
        )
        #expect(Self.failure("{{ substring('abc', toInt(minText)) }}", extremes) != nil)
        #expect(
            Self.failure("{{ substring('abc', 1, max) }}", extremes)?.contains("length 9223372036854775807") == true)
        #expect(Self.failure("{{ substring('abc', max, max) }}", extremes) != nil)
        #expect(Self.failure("{{ substring('abc', 2, min) }}", extremes) != nil)
        #expect(Self.failure("{{ nth([1, 2], min) }}", extremes) != nil)
        #expect(try Self.value("{{ substring('abc', 3) }}") == .string(""))
        #expect(try Self.value("{{ substring('abc', 1, 2) }}") == .string("bc"))
        #expect(try Self.value("{{ nth([1, 2], -2) }}") == .integer(1))
        let random = try Self.value("{{ randomInt(min, max) }}", extremes)
        #expect(random.doubleValue != nil)
    }

    // MARK: - Exact sums

    @Test func sumsAreExactOrFail() throws {
        // The old code gave the double 9.223372036854776e+18.
        #expect(try Self.value("{{ 9223372036854775807 + 1 }}") == .number(JSONNumber(text: "9223372036854775808")!))
        #expect(try ExpressionTests.render("{{ 9223372036854775807 + 1 }}") == "9223372036854775808")
        #expect(
            try Self.value("{{ min + min }}", ["min": .integer(.min)])
                == .number(JSONNumber(text: "-18446744073709551616")!))
        #expect(try Self.value("{{ max + 1 + -1 }}", ["max": .integer(.max)]) == .integer(.max))
        #expect(try Self.value("{{ 2 + 3 }}") == .integer(5))
        #expect(try Self.value("{{ 0.1 + 0.2 }}") == .double(0.3))
        #expect(try Self.value("{{ 1.5 + -1 }}") == .double(0.5))
        #expect(
            try Self.value("{{ 1e300 + 1e-300 }}")
                == .number(
                    JSONNumber(
                        text: "1" + String(repeating: "0", count: 300) + "." + String(repeating: "0", count: 299) + "1")!
                ))
        let big = JSONValue.number(JSONNumber(text: "123456789012345678901234567890")!)
        #expect(
            try Self.value("{{ big + 1 }}", ["big": big])
                == .number(JSONNumber(text: "123456789012345678901234567891")!))
        // Beyond a double's range there is no number: an error, not infinity.
        #expect(Self.failure("{{ 1e308 + 1e308 }}")?.contains("beyond the range of numbers") == true)
        #expect(Self.failure("{{ x + 1 }}", ["x": .double(.infinity)])?.contains("no exact sum") == true)
        let tiny = JSONValue.number(JSONNumber(text: "1e-20000")!)
        #expect(Self.failure("{{ tiny + 1 }}", ["tiny": tiny])?.contains("more than 10000 digits") == true)
    }

    @Test func comparisonsAreExact() throws {
        // The old code compared numbers other than two Int64s as doubles: these all held.
        #expect(try ExpressionTests.holds("12345678901234567890 != 12345678901234567891"))
        #expect(try ExpressionTests.holds("12345678901234567890 < 12345678901234567891"))
        #expect(try !ExpressionTests.holds("9007199254740993 == 9007199254740992.0"))
        #expect(try ExpressionTests.holds("9007199254740993 > 9007199254740992.0"))
        #expect(try ExpressionTests.holds("0.1 + 0.2 == 0.3"))
        var context = TemplateContext()
        context.set("n", .string(" 12345678901234567891 "), secret: false)
        #expect(try ExpressionTests.holds("n == 12345678901234567891", context))
        #expect(try ExpressionTests.holds("n > 12345678901234567890", context))
        #expect(try ExpressionTests.holds("1 == 1.0"))
        context.set("decomposed", .string("e\u{301}"), secret: false)
        context.set("composed", .string("\u{e9}"), secret: false)
        #expect(try ExpressionTests.holds("'b' > 'a' and decomposed != composed and decomposed < composed", context))
    }

    @Test func patternsKnownOnlyAtRunTimeAreCheckedAndLinear() throws {
        var context = TemplateContext()
        context.set("bad", .string("(a"), secret: false)
        context.set("costly", .string("(a*)*b"), secret: false)
        context.set("long", .string(String(repeating: "a", count: 5000)), secret: false)
        do {
            _ = try ExpressionTests.holds("'abc' matches bad", context)
            Issue.record("'(a' must be refused")
        } catch let error as TemplateError {
            #expect(error.message.contains("'(a' is not a valid regular expression (a '(' is not closed"), "\(error)")
        }
        // Exponential for a backtracking engine: 5,000 characters never ended.
        #expect(try !ExpressionTests.holds("long matches costly", context))
        #expect(
            try Self.value(
                "{{ length(replace(long, costly, 'x')) }}", ["long": context["long"]!, "costly": context["costly"]!])
                == .integer(5000))
        #expect(Self.failure("{{ replace('abc', '(?=a)', 'x') }}")?.contains("look-ahead") == true)
        // A match may start or end inside a character: texts are cut by scalars, never rounded to characters.
        #expect(
            try Self.value("{{ replace(t, p, '') }}", ["t": .string("cafe\u{301}s"), "p": .string("\u{301}")])
                == .string("cafes"))
        #expect(
            try Self.value("{{ replace(t, 'e', 'E') }}", ["t": .string("cafe\u{301}")]) == .string("cafE\u{301}"))
        // A pattern whose first alternative runs past every match would scan the rest of the text per match.
        #expect(
            Self.failure("{{ replace(t, '(a.*b)|a', 'x') }}", ["t": .string(String(repeating: "a", count: 20_000))])?
                .contains("too many steps") == true)
        #expect(try Self.value("{{ replace('aab', '(a.*b)|a', 'x') }}") == .string("x"))
        // A replacement that grows without bound is an error: 200,000 matches of 1,000 bytes each.
        let wide = String(repeating: "y", count: 1000)
        #expect(
            Self.failure(
                "{{ replace(long + long, '', w) }}",
                ["long": .string(String(repeating: "a", count: 100_000)), "w": .string(wide)])?
                .contains("longer than") == true)
    }

    // MARK: - Decoding

    @Test func base64DecodeRefusesWhatIsNotBase64() throws {
        // The old code decoded "====" to a NUL byte.
        for invalid in ["====", "=", "Y", "YQ=", "YQ===", "Y=Q=", "YR==", "YWJ=", "a+b_", "YQ==YQ==", "Y Q==", "%%%"] {
            #expect(
                Self.failure("{{ base64Decode(s) }}", ["s": .string(invalid)])?.hasSuffix("is not base64") == true,
                "\(invalid)")
        }
        for (encoded, decoded) in [
            ("", ""), ("YQ", "a"), ("YQ==", "a"), ("YWI", "ab"), ("YWI=", "ab"), ("YWJj", "abc"), (" YWJj\n", "abc"),
            ("Pz8_", "???"), ("Pz8/", "???"), ("w6k=", "é"),
        ] {
            #expect(try Self.value("{{ base64Decode(s) }}", ["s": .string(encoded)]) == .string(decoded), "\(encoded)")
        }
        #expect(Self.failure("{{ base64Decode('/w==') }}")?.hasSuffix("not UTF-8 text") == true)
    }

    @Test func conversionsAreExactOrFail() throws {
        #expect(
            try Self.value("{{ toInt(x) }}", ["x": .double(1e20)])
                == .number(JSONNumber(text: "100000000000000000000")!))
        #expect(try Self.value("{{ toInt(x) }}", ["x": .double(-2.9)]) == .integer(-2))
        #expect(
            try Self.value("{{ toInt('12345678901234567890123') }}")
                == .number(JSONNumber(text: "12345678901234567890123")!))
        #expect(try Self.value("{{ toInt(' 7.9 ') }}") == .integer(7))
        for invalid: JSONValue in [
            .double(.nan), .double(.infinity), .string("1e400"), .string("nan"), .string("0x10"),
        ] {
            #expect(Self.failure("{{ toInt(x) }}", ["x": invalid]) != nil, "\(invalid)")
        }
    }

    // MARK: - Dates

    @Test func dateAddRefusesDatesThatDoNotExist() throws {
        // The old code rolled 2024-02-30 over to March 1 and answered 2024-03-02.
        for invalid in [
            "2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "0000-01-01", "2024-1-01",
            "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z", "2024-01-01T23:59:60Z", "2024-01-01T10:00:00+24:00",
            "2024-01-01T10:00:00", "2024-01-01T10:00:00.Z", "2024-01-01T10:00:00Zjunk",
        ] {
            #expect(
                Self.failure("{{ dateAdd(d, 'P1D') }}", ["d": .string(invalid)])?.contains("is not an ISO 8601 date")
                    == true, "\(invalid)")
        }
        #expect(try Self.value("{{ dateAdd('2024-02-29', 'P1D') }}") == .string("2024-03-01"))
        #expect(try Self.value("{{ dateAdd('2000-02-28', 'P1D') }}") == .string("2000-02-29"))
        #expect(try Self.value("{{ dateAdd('2024-01-31T23:30:00Z', 'PT45M') }}") == .string("2024-02-01T00:15:00Z"))
        #expect(
            try Self.value("{{ dateAdd('2024-01-01T10:00:00.250+01:00', 'PT1S') }}")
                == .string("2024-01-01T09:00:01.250Z"))
        // A result outside the years 1 to 9999 is an error, not a wrapped or negative year.
        #expect(Self.failure("{{ dateAdd('9999-12-31', 'P1D') }}")?.contains("outside the years") == true)
        #expect(Self.failure("{{ dateAdd('2024-01-01', 'P999999999Y') }}")?.contains("outside the years") == true)
        #expect(Self.failure("{{ dateAdd('0001-01-01', '-P1D') }}")?.contains("outside the years") == true)
    }
}

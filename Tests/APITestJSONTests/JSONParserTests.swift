import APITestTestSupport
import Testing

@testable import APITestJSON

struct JSONParserTests {
    // MARK: - Values

    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(
            #"{"n": null, "t": true, "f": false, "i": -42, "d": 2.5, "s": "x", "a": [1, [2]], "o": {"k": {}}}"#)
        #expect(value["n"] == .null)
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["s"] == .string("x"))
        #expect(value["a"] == .array([.integer(1), .array([.integer(2)])]))
        #expect(value["o"] == .object(JSONObject([(key: "k", value: .object(JSONObject()))])))
        guard case .integer(-42)? = value["i"] else {
            Issue.record("i is not .integer(-42)")
            return
        }
        guard case .double(2.5)? = value["d"] else {
            Issue.record("d is not .double(2.5)")
            return
        }
    }

    @Test func keepsObjectMemberOrder() throws {
        let object = try #require(try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test func duplicateKeyKeepsLastValueAtFirstPosition() throws {
        let object = try #require(try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#).objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .integer(3))
    }

    @Test func largeObjectsKeepOrderLookupAndTheRepeatedKeyRule() throws {
        // Over 12 members the object keeps a key index; the parser adopts its members without copying.
        let keys = (0..<20).map { "k\($0)" }
        let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.keys == keys)
        #expect(object["k17"] == .integer(17))
        #expect(object["k20"] == nil)
        let repeated = try #require(
            try JSONParser.parse(String(text.dropLast()) + #", "k3": "last", "k0": null}"#).objectValue)
        #expect(repeated.keys == keys)
        #expect(repeated["k3"] == "last")
        #expect(repeated["k0"] == .null)
        #expect(repeated["k19"] == .integer(19))
    }

    @Test func nestedContainersCloseInTheirOwnOrder() throws {
        let value = try JSONParser.parse(#"[{"a": [1, {"b": []}, 2], "c": {}}, [], [[3]], {"d": [null, {"e": "f"}]}]"#)
        #expect(value == [["a": [1, ["b": []], 2], "c": [:]], [], [[3]], ["d": [nil, ["e": "f"]]]])
        #expect(value.arrayValue?.count == 4)
        #expect(value.arrayValue?.first?.objectValue?.keys == ["a", "c"])
    }

    // MARK: - Numbers

    @Test(arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)), ("123456789", .integer(123_456_789)),
    ])
    func integersStayExact(_ text: String, _ expected: JSONValue) throws {
        let value = try JSONParser.parse(text)
        guard case .integer(let parsed) = value, case .integer(let wanted) = expected else {
            Issue.record("\(text) parsed as \(value), not an integer")
            return
        }
        #expect(parsed == wanted)
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "100000000000000000000"])
    func integersBeyondSixtyFourBitsStayExact(_ text: String) throws {
        let value = try JSONParser.parse(text)
        guard case .number(let number) = value else {
            Issue.record("\(text) parsed as \(value), not an exact number")
            return
        }
        #expect(number.description == text)
    }

    @Test(arguments: ["1.0", "1e2", "1E2", "-0.0", "1e20", "0.1"])
    func othersBecomeDoubles(_ text: String) throws {
        let value = try JSONParser.parse(text)
        guard case .double(let number) = value else {
            Issue.record("\(text) parsed as \(value), not a double")
            return
        }
        #expect(number == Double(text))
    }

    @Test func doublesAreCorrectlyRounded() throws {
        // Fast path, slow path and edge cases must agree with the standard library's correctly rounded conversion.
        var texts = [
            "0.1", "0.2", "0.3", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "123456789012345678901234567890", "0.000001", "1e22", "1e23", "9007199254740993", "9007199254740993.0",
            "3.141592653589793238462643383279", "1.00000000000000011102230246251565404236316680908203125",
            "7.038531e-26", "2.5e-5", "-1.5e-300", "1e-400",
        ]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let digits = String(generator.next() % 10_000_000_000_000_000)
            let split = Int(generator.next() % UInt64(digits.count + 1))
            let exponent = Int(generator.next() % 80) - 40
            let mantissa =
                split == 0 ? "0." + digits : String(digits.prefix(split)) + "." + digits.dropFirst(split) + "0"
            texts.append(mantissa + "e" + String(exponent))
        }
        for text in texts {
            let value = try JSONParser.parse(text)
            #expect(value.doubleValue == Double(text), "\(text)")
        }
    }

    @Test func numberTooLargeForADoubleIsAnError() {
        #expect(throws: JSONParseError.self) { _ = try JSONParser.parse("-1e309") }
    }

    // MARK: - Strings

    @Test func decodesEscapes() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSONParser.parse(#""\u00e9\u20AC""#) == .string("é€"))
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00!""#) == .string("😀!"))
    }

    @Test func rejectsLoneSurrogatesWithAClearMessage() {
        #expect(throws: JSONParseError.self) { _ = try JSONParser.parse(#""\ud83d""#) }
        do {
            _ = try JSONParser.parse(#"["\ude00"]"#)
            Issue.record("lone low surrogate accepted")
        } catch {
            #expect(error.message.contains("lone low surrogate"))
            #expect(error.offset == 2)
        }
    }

    @Test func rejectsRawControlCharacters() {
        do {
            _ = try JSONParser.parse("[\"a\u{1}\"]")
            Issue.record("control character accepted")
        } catch {
            #expect(error.message == "unescaped control character U+0001 in string")
            #expect(error.offset == 3)
        }
    }

    // MARK: - Input forms

    @Test func acceptsAnyByteCollection() throws {
        let text = #"{"a": [1, "ü"]}"#
        let expected: JSONValue = ["a": [1, "ü"]]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
        #expect(try JSONParser.parse(Array(("xx" + text).utf8).dropFirst(2)) == expected)
        // Not contiguous: exercises the copying fallback.
        #expect(try JSONParser.parse(Array(text.utf8).lazy.map { $0 }) == expected)
        let substring = ("[" + text + "]").dropFirst().dropLast()
        #expect(try JSONParser.parse(String(substring)) == expected)
    }

    // MARK: - Errors

    @Test func errorReportsLineColumnAndWhatWasFound() {
        let text = "{\n  \"a\": 1,\n  \"bb\": 2    x\n}"
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 14)
            #expect(error.offset == 25)
            #expect(error.description == "line 3, column 14: expected ',' or '}' after object member, found 'x'")
        }
    }

    @Test(arguments: [
        ("[1,]", "trailing comma before ']'", 3),
        (#"{"a":1,}"#, "trailing comma before '}'", 7),
        ("[1 2]", "expected ',' or ']' after array element, found '2'", 3),
        ("[01]", "leading zeros are not allowed in numbers", 1),
        ("1 x", "unexpected 'x' after the JSON value", 2),
        ("", "expected a JSON value, found end of input", 0),
        (#"{"a" 1}"#, "expected ':' after object key, found '1'", 5),
        ("[nul]", "invalid literal, expected 'null'", 1),
        (#"["abc"#, "unterminated string", 1),
        ("[1.]", "expected a digit after the decimal point, found ']'", 3),
        ("[\u{1F600}]", "expected a value, found '\u{1F600}' (U+1F600)", 1),
        ("[\n\t\u{7}]", "expected a value, found U+0007", 3),
    ])
    func errorMessages(_ text: String, _ message: String, _ offset: Int) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message == message)
            #expect(error.offset == offset)
        }
    }

    @Test func columnsCountCharactersAndLinesHonourCRLF() {
        do {
            _ = try JSONParser.parse("[\r\n\"é\", x]")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 6)
        }
    }

    // MARK: - Depth

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(text)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            guard let first = elements.first else { break }
            value = first
        }
        #expect(levels == depth)
    }

    @Test func rejectsNestingBeyondTheLimitWithoutCrashing() {
        for depth in [JSONParser.maximumDepth + 1, 1_000_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            do {
                _ = try JSONParser.parse(text)
                Issue.record("depth \(depth) accepted")
            } catch {
                #expect(error.message == "nesting depth exceeds the limit of 512")
                #expect(error.offset == JSONParser.maximumDepth)
            }
        }
        let objects = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(throws: JSONParseError.self) { _ = try JSONParser.parse(objects) }
    }

    // MARK: - Size

    @Test func parsesATenMegabyteDocument() throws {
        var text = "["
        var index = 0
        text.reserveCapacity(10_500_000)
        while text.utf8.count < 10_000_000 {
            if index > 0 { text += "," }
            text +=
                #"{"id":\#(index),"name":"user \#(index)","score":\#(Double(index) / 8),"tags":["a","b\n"],"ok":true}"#
            index += 1
        }
        text += "]"
        let value = try JSONParser.parse(text)
        let elements = try #require(value.arrayValue)
        #expect(elements.count == index)
        #expect(elements[index - 1]["id"] == .integer(Int64(index - 1)))
        #expect(elements[12]["tags"] == ["a", "b\n"])
        // The writer handles it too, and the round trip is exact.
        #expect(try JSONParser.parse(JSONWriter.bytes(value)) == value)
    }
}

import Testing

@testable import APITestJSON

/// Numbers beyond `Int64` and `Double` keep their exact decimal value through parsing, comparison and writing.
struct JSONNumberTests {
    // MARK: - Parsing

    @Test func integersBeyondSixtyFourBitsStayExact() throws {
        let value = try JSONParser.parse(#"{"d": 12345678901234567891, "n": -98765432109876543210987}"#)
        #expect(value["d"] == .number(JSONNumber(text: "12345678901234567891")!))
        #expect(value["d"] != .number(JSONNumber(text: "12345678901234567890")!))
        #expect(value["d"]?.typeName == "integer")
        #expect(JSONWriter.string(value) == #"{"d":12345678901234567891,"n":-98765432109876543210987}"#)
    }

    @Test func longDecimalsStayExactAndShortOnesStayDoubles() throws {
        let value = try JSONParser.parse(
            "[0.1, 1.5e300, 0.30000000000000004, 1.00000000000000000001, 1.50000000000000000000]")
        guard case .array(let items) = value else {
            Issue.record("not an array")
            return
        }
        #expect(items[0] == .double(0.1))
        if case .double = items[0] {} else { Issue.record("0.1 should stay a double") }
        if case .double = items[1] {} else { Issue.record("1.5e300 should stay a double") }
        if case .double = items[2] {} else { Issue.record("0.30000000000000004 should stay a double") }
        #expect(items[3] == .number(JSONNumber(text: "1.00000000000000000001")!))
        #expect(items[3] != .double(1.0))
        #expect(items[4] == .double(1.5))
        #expect(JSONWriter.string(items[3]) == "1.00000000000000000001")
    }

    @Test func boundariesOfInt64() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        let above = try JSONParser.parse("9223372036854775808")
        #expect(above == .number(JSONNumber(text: "9223372036854775808")!))
        #expect(above != .integer(.max))
        #expect(JSONWriter.string(above) == "9223372036854775808")
        #expect(JSONWriter.string(try JSONParser.parse("-9223372036854775809")) == "-9223372036854775809")
    }

    @Test func numbersBeyondADoubleAreStillErrors() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1e400") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "9", count: 400)) }
    }

    // MARK: - Equality and order

    @Test func equalityIsExactAcrossRepresentations() {
        let big = JSONValue(numberText: "12345678901234567890")!
        #expect(big != JSONValue(numberText: "12345678901234567891")!)
        #expect(big != .double(12_345_678_901_234_567_890.0)) // 1.2345678901234567e19 is another decimal
        #expect(JSONValue(numberText: "10000000000000000000")! == .double(1e19))
        #expect(JSONValue(numberText: "100")! == .double(100))
        #expect(JSONValue(numberText: "1.0")! == .integer(1))
        #expect(JSONValue(numberText: "5.000000000000000000000")! == .integer(5))
        #expect(JSONValue.integer(.max) != .double(9.223372036854776e18))
        #expect(JSONValue.integer(.min) != .double(-9.223372036854776e18))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
        // Equal values hash alike.
        #expect(Set<JSONValue>([.integer(5), JSONValue(numberText: "5.0000000000000000000001")!]).count == 2)
        #expect(Set<JSONValue>([.double(1e19), JSONValue(numberText: "10000000000000000000")!]).count == 1)
    }

    @Test func orderIsExactAcrossRepresentations() {
        func order(_ a: String, _ b: String) -> Int? {
            JSONValue.numericOrder(JSONValue(numberText: a)!, JSONValue(numberText: b)!)
        }
        #expect(order("12345678901234567890", "12345678901234567891") == -1)
        #expect(order("12345678901234567891", "12345678901234567890") == 1)
        #expect(order("-12345678901234567891", "-12345678901234567890") == -1)
        #expect(order("9223372036854775807", "9223372036854775808") == -1)
        #expect(order("9223372036854775808", "9.223372036854776e18") == -1)
        #expect(order("1.00000000000000000001", "1") == 1)
        #expect(order("0.99999999999999999999", "1.0") == -1)
        #expect(order("-0.00000000000000000000001", "0") == -1)
        #expect(order("1e-30", "0.000000000000000000000000000001") == 0)
        #expect(JSONValue.numericOrder(.double(.infinity), JSONValue(numberText: "1e300")!) == 1)
        #expect(JSONValue.numericOrder(.double(.nan), .integer(1)) == nil)
        #expect(JSONValue.numericOrder(.string("1"), .integer(1)) == nil)
    }

    @Test func jsonPathFiltersCompareExactly() throws {
        let document = try JSONParser.parse(#"[{"id": 12345678901234567890}, {"id": 12345678901234567891}]"#)
        let equal = try JSONPath("$[?@.id == 12345678901234567891].id").query(document)
        #expect(equal == [JSONValue(numberText: "12345678901234567891")!])
        let less = try JSONPath("$[?@.id < 12345678901234567891].id").query(document)
        #expect(less == [JSONValue(numberText: "12345678901234567890")!])
    }

    // MARK: - Text

    @Test func descriptionKeepsEveryDigit() {
        #expect(JSONNumber(text: "0")!.description == "0")
        #expect(JSONNumber(text: "-0.000")!.description == "0")
        #expect(JSONNumber(text: "120e1")!.description == "1200")
        #expect(JSONNumber(text: "0.000123")!.description == "0.000123")
        #expect(JSONNumber(text: "-123.456000")!.description == "-123.456")
        #expect(JSONNumber(text: "1.5e400")!.description == "1.5e+400")
        #expect(JSONNumber(text: "2e-50")!.description == "2e-50")
        #expect(JSONNumber(text: "abc") == nil)
        #expect(JSONNumber(text: "1e") == nil)
        #expect(JSONNumber(text: "-") == nil)
        for text in ["12345678901234567891", "0.10000000000000000001", "1.5e+400", "-7.25e-40"] {
            let number = JSONNumber(text: text)!
            #expect(JSONNumber(text: number.description) == number, "\(text)")
        }
    }

    @Test func wholePartsAndMultiples() {
        #expect(JSONNumber(text: "-12345678901234567891.9")!.integerPart.description == "-12345678901234567891")
        #expect(JSONNumber(text: "0.5")!.integerPart.isZero)
        #expect(JSONNumber(text: "12345678901234567890")!.isMultiple(of: JSONNumber(text: "10")!))
        #expect(!JSONNumber(text: "12345678901234567891")!.isMultiple(of: JSONNumber(text: "10")!))
        #expect(JSONNumber(text: "0.0075")!.isMultiple(of: JSONNumber(text: "0.0001")!))
        let huge = JSONNumber(text: "123456789012345678901234567890")!
        #expect(JSONNumber(text: "246913578024691357802469135780")!.isMultiple(of: huge))
        #expect(!JSONNumber(text: "246913578024691357802469135781")!.isMultiple(of: huge))
    }

    @Test func fitsInSixteenBytes() {
        #expect(MemoryLayout<JSONNumber>.size <= 16)
        #expect(MemoryLayout<JSONValue>.size <= 17)
    }
}

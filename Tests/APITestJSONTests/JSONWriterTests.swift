import APITestTestSupport
import Testing

@testable import APITestJSON

struct JSONWriterTests {
    // MARK: - Compact output

    @Test func writesCompactJSON() {
        let value: JSONValue = ["b": [1, 2.5, nil, true, false], "a": "x", "c": [:], "d": []]
        #expect(JSONWriter.string(value) == #"{"b":[1,2.5,null,true,false],"a":"x","c":{},"d":[]}"#)
        #expect(value.description == JSONWriter.string(value))
    }

    @Test func sortsKeysByUnicodeScalarsWhenAsked() {
        let value: JSONValue = ["b": 1, "a": ["z": 1, "y": 2], "B": 3, "é": 4]
        #expect(JSONWriter.string(value, sortedKeys: true) == #"{"B":3,"a":{"y":2,"z":1},"b":1,"é":4}"#)
    }

    // MARK: - Pretty output

    @Test func prettyUsesTwoSpaceIndentAndSpaceAfterColon() {
        let value: JSONValue = ["name": "x", "list": [1, ["k": nil]], "empty": [], "none": [:]]
        let expected = """
            {
              "name": "x",
              "list": [
                1,
                {
                  "k": null
                }
              ],
              "empty": [],
              "none": {}
            }
            """
        #expect(JSONWriter.string(value, pretty: true) == expected)
        #expect(JSONWriter.string(.integer(3), pretty: true) == "3")
    }

    // MARK: - Strings

    @Test func escapesOnlyWhatJSONRequires() {
        let value = JSONValue.string("q\" b\\ / \n\t\r\u{8}\u{C} \u{0}\u{1F}\u{7F} é 😀 \u{2028}")
        #expect(JSONWriter.string(value) == #""q\" b\\ / \n\t\r\b\f \u0000\u001f"# + "\u{7F} é 😀 \u{2028}\"")
        #expect(JSONWriter.quoted("a\"b") == #""a\"b""#)
    }

    // MARK: - Numbers

    @Test(arguments: [
        (1.0, "1.0"), (-0.0, "-0.0"), (100.0, "100.0"), (0.1, "0.1"), (2.5, "2.5"), (-123.456, "-123.456"),
        (1e15, "1000000000000000.0"), (9_007_199_254_740_992.0, "9007199254740992.0"), (1e16, "1e+16"),
        (1e-4, "0.0001"), (1e-5, "1e-5"), (1.5e300, "1.5e+300"), (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (Double.infinity, "null"), (Double.nan, "null"),
    ])
    func writesDoublesInShortestRoundTripForm(_ number: Double, _ text: String) throws {
        #expect(JSONWriter.string(.double(number)) == text)
        if number.isFinite {
            let back = try JSONParser.parse(text)
            guard case .double(let parsed) = back else {
                Issue.record("\(text) read back as \(back), not as a double")
                return
            }
            #expect(parsed == number && parsed.sign == number.sign)
        }
    }

    @Test func writesIntegersExactly() {
        #expect(JSONWriter.string(.integer(.max)) == "9223372036854775807")
        #expect(JSONWriter.string(.integer(.min)) == "-9223372036854775808")
    }

    // MARK: - Round trip

    @Test func parseOfWriteIsIdentityForGeneratedValues() throws {
        var generator = SplitMix64(seed: 2024)
        for round in 0..<400 {
            let value = Self.randomValue(depth: 0, using: &generator)
            for (pretty, sorted) in [(false, false), (true, false), (false, true), (true, true)] {
                let text = JSONWriter.string(value, pretty: pretty, sortedKeys: sorted)
                let back = try JSONParser.parse(text)
                #expect(back == value, "round \(round), pretty \(pretty): \(text)")
                #expect(Self.sameCases(back, value), "round \(round): number cases changed in \(text)")
                if !sorted, case .object(let original) = value, case .object(let parsed) = back {
                    #expect(parsed.keys == original.keys, "member order changed")
                }
                #expect(JSONWriter.bytes(value, pretty: pretty, sortedKeys: sorted) == Array(text.utf8))
            }
        }
    }

    /// Stricter than `==`: integers stay integers and doubles stay doubles (with their sign).
    static func sameCases(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b && a.sign == b.sign
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(sameCases)
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && a.members.allSatisfy { member in
                    b[member.key].map { sameCases(member.value, $0) } ?? false
                }
        case (.integer, _), (.double, _), (_, .integer), (_, .double), (.array, _), (.object, _): return false
        default: return lhs == rhs
        }
    }

    static func randomValue(depth: Int, using generator: inout SplitMix64) -> JSONValue {
        let choice = depth > 4 ? Int(generator.next() % 6) : Int(generator.next() % 8)
        switch choice {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2:
            let raw = Int64(bitPattern: generator.next())
            return .integer(generator.next() % 2 == 0 ? raw : raw % 1000)
        case 3:
            var number: Double
            repeat {
                number = Double(bitPattern: generator.next())
            } while !number.isFinite
            let simple = [0.0, -0.0, 1.0, 0.5, 1e21, 123.0, -7.25][Int(generator.next() % 7)]
            return .double(generator.next() % 2 == 0 ? number : simple)
        case 4, 5: return .string(randomString(using: &generator))
        case 6:
            let count = Int(generator.next() % 5)
            return .array((0..<count).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            let count = Int(generator.next() % 5)
            return .object(
                JSONObject(
                    (0..<count).map { _ in
                        (key: randomString(using: &generator), value: randomValue(depth: depth + 1, using: &generator))
                    }))
        }
    }

    static func randomString(using generator: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}",
            "é", "€", "\u{2028}", "😀", "\u{FEFF}", "\u{10FFFF}", "'", "{", "]",
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(generator.next() % 12) {
            if generator.next() % 4 == 0, let any = Unicode.Scalar(UInt32(generator.next() % 0x11_0000)) {
                scalars.append(any)
            } else {
                scalars.append(pool[Int(generator.next() % UInt64(pool.count))])
            }
        }
        return String(scalars)
    }
}

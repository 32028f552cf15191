import Testing

@testable import APITestJSON

struct JSONPathTests {
    /// The example document of RFC 9535 §1.5.
    static let store: JSONValue = {
        let text = #"""
            { "store": {
                "book": [
                  { "category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95 },
                  { "category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99 },
                  { "category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3",
                    "price": 8.99 },
                  { "category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings",
                    "isbn": "0-395-19395-8", "price": 22.99 }
                ],
                "bicycle": { "color": "red", "price": 399 }
              }
            }
            """#
        return (try? JSONParser.parse(text)) ?? .null
    }()

    private func query(_ expression: String, _ document: JSONValue = store) throws -> [JSONValue] {
        try JSONPath(expression).query(document)
    }

    // MARK: - RFC 9535 §1.5 examples

    @Test func rfcExamples() throws {
        let authors: [JSONValue] = ["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"]
        #expect(try query("$.store.book[*].author") == authors)
        #expect(try query("$..author") == authors)
        #expect(try query("$.store.*").count == 2)
        #expect(try query("$.store..price") == [8.95, 12.99, 8.99, 22.99, 399])
        #expect(try query("$..book[2].title") == ["Moby Dick"])
        #expect(try query("$..book[-1].title") == ["The Lord of the Rings"])
        #expect(try query("$..book[0,1].title") == ["Sayings of the Century", "Sword of Honour"])
        #expect(try query("$..book[:2].title") == ["Sayings of the Century", "Sword of Honour"])
        #expect(try query("$..book[?@.isbn].title") == ["Moby Dick", "The Lord of the Rings"])
        #expect(try query("$..book[?@.price<10].title") == ["Sayings of the Century", "Moby Dick"])
        #expect(try query("$..*").count == 27)
    }

    // MARK: - Located results

    @Test func locatedResultsUseNormalizedPaths() throws {
        let located = try JSONPath("$..book[?@.price < 10]['title']").queryLocated(Self.store)
        #expect(located.map(\.path) == ["$['store']['book'][0]['title']", "$['store']['book'][2]['title']"])
        #expect(located.map(\.value) == ["Sayings of the Century", "Moby Dick"])
        #expect(try JSONPath("$.store.book[-1]").queryLocated(Self.store).map(\.path) == ["$['store']['book'][3]"])
        #expect(try JSONPath("$").queryLocated(Self.store).map(\.path) == ["$"])
    }

    @Test func normalizedPathsEscapeNames() throws {
        let document: JSONValue = ["a'b\\c": 1, "\u{B}\n": 2, "\"/é😀": 3]
        let paths = try JSONPath("$.*").queryLocated(document).map(\.path)
        #expect(paths == [#"$['a\'b\\c']"#, #"$['\u000b\n']"#, #"$['"/é😀']"#])
    }

    // MARK: - Singular queries

    @Test(arguments: [
        ("$", true), ("$.a", true), ("$['a'][0]", true), ("$.a[-1].b", true), ("$ [0] .x", true),
        ("$.*", false), ("$..a", false), ("$[0,1]", false), ("$[0:1]", false), ("$[?@]", false),
        ("$['a','b']", false), ("$.a[*]", false),
    ])
    func singularity(_ expression: String, _ singular: Bool) throws {
        #expect(try JSONPath(expression).isSingular == singular)
    }

    // MARK: - Errors

    @Test(arguments: [
        (" $", 0, "leading whitespace is not allowed"),
        ("$ ", 1, "trailing whitespace is not allowed"),
        ("a", 0, "a JSONPath query must start with '$', found 'a'"),
        ("$.a[", 4, "expected a selector, found end of expression"),
        ("$[1,]", 4, "expected a selector (name, '*', index, slice or filter), found ']'"),
        ("$[1 2]", 4, "expected ',' or ']' after selector, found '2'"),
        ("$[01]", 2, "leading zeros are not allowed in integers"),
        ("$[-0]", 2, "'-0' is not a valid index"),
        ("$[9007199254740992]", 2, "integer out of range (the limit is ±(2^53 − 1))"),
        ("$. a", 2, "expected a member name or '*' after '.', found ' '"),
        ("$['a\\x']", 4, "invalid escape sequence '\\x' in string literal"),
        ("$['\\uD800']", 3, "high surrogate \\uD800 must be followed by a low surrogate escape"),
        (
            "$[?@.a == @.b[*]]", 10,
            "only singular queries (one name or index per segment, no blanks inside brackets) can be compared"
        ),
        ("$[?length(@.a)]", 3, "'length' returns ValueType, so its result must be compared"),
        ("$[?match(@.a, 'x') == true]", 3, "'match' returns LogicalType and cannot be compared"),
        ("$[?count(1) > 0]", 9, "function 'count' expects NodesType here, found a literal"),
        ("$[?length(@.*) > 0]", 10, "function 'length' needs a value here, but this is not a singular query"),
        ("$[?foo(@)]", 3, "unknown function 'foo' (known: length, count, match, search, value)"),
        ("$[?length (@) > 1]", 9, "no whitespace is allowed between a function name and '('"),
        ("$[?length(@, @) > 1]", 3, "function 'length' takes 1 argument, found 2"),
        ("$[?1]", 3, "a literal cannot be a test on its own; compare it with something"),
        ("$[?!@.a == 1]", 3, "'!' cannot negate a comparison without parentheses"),
        ("$[?(@.a == 1]", 12, "expected ')' to close the '(' at offset 3, found ']'"),
        ("$[?@.a = 1]", 7, "expected ',' or ']' after selector, found '='"),
        ("$['e\u{301}']x", 6, "unexpected 'x' after the query"),
    ])
    func errorsPointAtTheBadSpot(_ expression: String, _ offset: Int, _ message: String) {
        do {
            _ = try JSONPath(expression)
            Issue.record("accepted \(expression)")
        } catch {
            #expect(error.message == message, "\(expression)")
            #expect(error.offset == offset, "\(expression)")
            #expect(error.description == "offset \(offset): \(message)")
        }
    }

    @Test func comparedQueriesMustBeWrittenAsSingularQueries() throws {
        // name-segment = "[" name-selector "]": no blank space inside the brackets (between segments is fine).
        #expect(throws: JSONPathError.self) { _ = try JSONPath("$[?@[ 'a' ] == 1]") }
        #expect(throws: JSONPathError.self) { _ = try JSONPath("$[?length(@[0 ]) == 1]") }
        #expect(try query("$[?@ ['a'] [0] == 1]", [["a": [1]], ["a": [2]]]) == [["a": [1]]])
        #expect(try JSONPath("$[ 'a' ]").isSingular) // the public property is about what the query can select
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let filters = "$" + String(repeating: "[?@", count: 1000) + String(repeating: "]", count: 1000)
        let parentheses =
            "$[?" + String(repeating: "(", count: 10_000) + "@" + String(repeating: ")", count: 10_000) + "]"
        let calls = "$[?" + String(repeating: "length(", count: 500) + "@" + String(repeating: ")", count: 500) + "==1]"
        for expression in [filters, parentheses, calls] {
            #expect(throws: JSONPathError.self) { _ = try JSONPath(expression) }
        }
        #expect(throws: Never.self) {
            _ = try JSONPath("$" + String(repeating: "[?@", count: 20) + String(repeating: "]", count: 20))
        }
    }

    // MARK: - Selectors

    @Test func slices() throws {
        let document: JSONValue = [0, 1, 2, 3, 4, 5]
        #expect(try query("$[::-1]", document) == [5, 4, 3, 2, 1, 0])
        #expect(try query("$[5:1:-2]", document) == [5, 3])
        #expect(try query("$[-2:]", document) == [4, 5])
        #expect(try query("$[::0]", document) == [])
        #expect(try query("$[-100:100:2]", document) == [0, 2, 4])
        #expect(try query("$[ 1 : 3 ]", document) == [1, 2])
        #expect(try JSONPath("$[:-7:-1]").query(document) == [5, 4, 3, 2, 1, 0])
        #expect(try JSONPath("$[1:3]").queryLocated(document).map(\.path) == ["$[1]", "$[2]"])
    }

    @Test func descendantsComeParentsFirstInDocumentOrder() throws {
        let document: JSONValue = ["x": ["x": 1, "y": ["x": 2]], "z": [["x": 3]]]
        let located = try JSONPath("$..x").queryLocated(document)
        #expect(located.map(\.path) == ["$['x']", "$['x']['x']", "$['x']['y']['x']", "$['z'][0]['x']"])
    }

    @Test func descendantSegmentHandlesTheDeepestParsableDocument() throws {
        let depth = JSONParser.maximumDepth - 1
        let text = String(repeating: #"{"a":"#, count: depth) + "0" + String(repeating: "}", count: depth)
        let document = try JSONParser.parse(text)
        #expect(try JSONPath("$..a").query(document).count == depth)
    }

    // MARK: - Comparisons

    @Test func comparisonSemantics() throws {
        let mixed: JSONValue = [1, 1.0, "1", true, [1], ["a": 1], nil]
        #expect(try query("$[?@ == 1]", mixed) == [1, 1.0])
        #expect(throws: JSONPathError.self) { _ = try JSONPath("$[?@ == [1]]") } // literals are scalars only
        #expect(try query("$[?@ == $[4]]", mixed) == [[1]])
        #expect(try query("$[?@ == $[5]]", mixed) == [["a": 1]])
        #expect(try query("$[?@ == null]", mixed) == [nil])
        #expect(try query("$[?@ < 2]", mixed) == [1, 1.0])
        #expect(try query("$[?@ <= true]", mixed) == [true])
        #expect(try query("$[?@ < 'b']", ["a", "B", "é", "ab", 1, "b"]) == ["a", "B", "ab"])
        // Nothing == Nothing; Nothing < anything is false.
        #expect(try query("$[?@.x == @.y]", [["x": 1], [:], ["y": 1], ["x": 2, "y": 2]]) == [[:], ["x": 2, "y": 2]])
        #expect(try query("$[?@.x <= @.y]", [[:]]) == [[:]])
        #expect(try query("$[?@.x < @.y]", [[:]]) == [])
    }

    @Test func numbersCompareExactlyAcrossIntegerAndDouble() throws {
        let big: JSONValue = [.integer(9_007_199_254_740_993)]
        #expect(try query("$[?@ > 9007199254740992.0]", big) == big.arrayValue)
        #expect(try query("$[?@ == 9007199254740992.0]", big) == [])
        #expect(try query("$[?@ == 1e0]", [1]) == [1])
        #expect(try query("$[?@ == -0]", [0.0]) == [0.0])
        #expect(try query("$[?@ > 0.5]", [0, 1]) == [1])
    }

    @Test func logicalOperatorsAndPrecedence() throws {
        let document: JSONValue = [["a": 1, "b": 1], ["a": 1], ["b": 1], [:]]
        #expect(try query("$[?@.a && @.b]", document) == [["a": 1, "b": 1]])
        #expect(try query("$[?@.a || @.b]", document).count == 3)
        #expect(try query("$[?!@.a]", document) == [["b": 1], [:]])
        #expect(try query("$[?!(@.a || @.b)]", document) == [[:]])
        #expect(try query("$[?@.a || @.b && !@.a]", document).count == 3)
        #expect(try query("$[?(@.a || @.b) && !@.a]", document) == [["b": 1]])
    }

    // MARK: - Functions

    @Test func lengthCountAndValue() throws {
        let document: JSONValue = ["😀e\u{301}", "ab", [1, 2], ["k": 1, "l": 2], 5]
        #expect(try query("$[?length(@) == 3]", document) == ["😀e\u{301}"])
        #expect(try query("$[?length(@) == 2]", document) == ["ab", [1, 2], ["k": 1, "l": 2]])
        #expect(try query("$[?count(@.*) == 2]", document) == [[1, 2], ["k": 1, "l": 2]])
        #expect(try query("$[?value(@.k) == 1]", document) == [["k": 1, "l": 2]])
        #expect(try query("$[?value(@.*) == 1]", [["a": 1], ["a": 1, "b": 1]]) == [["a": 1]])
    }

    @Test func matchIsAnchoredAndSearchIsNot() throws {
        let document: JSONValue = ["abc", "xabcx", "ab"]
        #expect(try query("$[?match(@, 'a.c')]", document) == ["abc"])
        #expect(try query("$[?search(@, 'a.c')]", document) == ["abc", "xabcx"])
        #expect(try query("$[?search(@, '^ab')]", document) == ["abc", "ab"])
        #expect(try query("$[?search(@, 'c$')]", document) == ["abc"])
        #expect(try query("$[?search(@, '\\\\^')]", ["^", "a"]) == ["^"])
    }

    @Test func iRegexpDotAndClasses() throws {
        let lines: JSONValue = ["\n", "\r", "\u{2028}", "\u{85}", "😀", "ab", "e\u{301}"]
        #expect(try query("$[?match(@, '.')]", lines) == ["\u{2028}", "\u{85}", "😀"])
        #expect(try query("$[?match(@, '..')]", lines) == ["ab", "e\u{301}"])
        #expect(try query("$[?match(@, '[^a]')]", ["a", "\n", "b"]) == ["\n", "b"])
        // Swift regex class operators (&&, --, ~~) and '$', '.' are plain characters inside an I-Regexp class.
        #expect(try query("$[?match(@, '[a&&b]+')]", ["&", "a&b", "b"]) == ["&", "a&b", "b"])
        #expect(try query("$[?match(@, '[.$]')]", [".", "$", "a"]) == [".", "$"])
        #expect(try query("$[?match(@, '[-a]')]", ["-", "a", "b"]) == ["-", "a"])
        #expect(try query("$[?match(@, '\\\\p{Lu}\\\\P{L}')]", ["A1", "a1", "AB", "É!"]) == ["A1", "É!"])
        #expect(try query("$[?match(@, 'a{2,3}|(bc)+')]", ["a", "aa", "aaaa", "bcbc", "bcb"]) == ["aa", "bcbc"])
    }

    @Test(arguments: [
        "\\\\d", "a**", "[]", "[^]", "(a", "a)", "a{2", "\\\\p{IsBasicLatin}", "[a-c-e]", "^*", "\\\\$",
        "[z-a]", "a{3,2}", "(?:a)", "\\\\u0041",
    ])
    func invalidIRegexpIsRefusedOrNeverMatches(_ pattern: String) throws {
        // Written in the path, it is an error where it is written (it used to load and silently match nothing).
        #expect(throws: JSONPathError.self) { try JSONPath("$[?match(@, '\(pattern)')]") }
        #expect(throws: JSONPathError.self) { try JSONPath("$[?search(@, '\(pattern)')]") }
        // Taken from the document, it never matches (RFC 9535 §2.4.6).
        let document: JSONValue = [
            "p": .string(pattern.replacing("\\\\", with: "\\")),
            "v": ["a", "aa", "1", "d", "", "A", "$"],
        ]
        #expect(try query("$.v[?match(@, $.p)]", document) == [])
        #expect(try query("$.v[?search(@, $.p)]", document) == [])
    }

    @Test func anInvalidLiteralPatternIsLocated() throws {
        do {
            _ = try JSONPath("$[?match(@.a, '(a')]")
            Issue.record("'(a' must be refused")
        } catch {
            #expect(error.description.contains("'(a' is not a valid I-Regexp"), "\(error)")
            #expect(error.description.hasPrefix("offset 14:"), "\(error)")
        }
        // Linear time on a pattern that is exponential for a backtracking engine.
        let long = JSONValue.string(String(repeating: "a", count: 5000))
        #expect(try query("$[?match(@, '(a*)*b')]", [long]) == [])
        #expect(try query("$[?search(@, '(a|aa)+c')]", [long]) == [])
    }

    @Test func patternsFromTheDocument() throws {
        let document: JSONValue = ["pattern": "b.?b", "values": ["bab", "abc", "bb"], "bad": "("]
        #expect(try query("$.values[?match(@, $.pattern)]", document) == ["bab", "bb"])
        #expect(try query("$.values[?match(@, $.bad)]", document) == [])
        #expect(try query("$.values[?match(@, $.missing)]", document) == [])
    }

    // MARK: - Identity

    @Test func equalityFollowsTheParsedQuery() throws {
        #expect(try JSONPath("$.a") == JSONPath("$['a']"))
        #expect(try JSONPath("$.a") == JSONPath("$[\"a\"]"))
        #expect(try JSONPath("$.a") != JSONPath("$.b"))
        #expect(try JSONPath("$[?match(@, 'a')]") != JSONPath("$[?match(@, 'b')]"))
        let set: Set<JSONPath> = [try JSONPath("$.a"), try JSONPath("$['a']"), try JSONPath("$[0]")]
        #expect(set.count == 2)
        #expect(try JSONPath("$['a']").description == "$['a']")
    }

    @Test func oneCompiledPathServesConcurrentQueries() async throws {
        let path = try JSONPath("$[?match(@.name, '[a-z]+ [0-9]+') && @.n > 10].name")
        let document = JSONValue.array((0..<200).map { ["name": .string("user \($0)"), "n": .integer(Int64($0))] })
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { path.query(document).count }
            }
            var all: [Int] = []
            for await count in group { all.append(count) }
            return all
        }
        #expect(counts == Array(repeating: 189, count: 16))
    }
}

import APITestJSON
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The loader keeps text that differs in code points apart, as JSON does (RFC 8259 §8.3): `"\u00e9"` and
/// `"e\u0301"` are canonically equivalent, so Swift's `String ==` and `[String: …]` keys treat them as one, but they
/// are different JSON member names, patterns and keys.
@Suite struct CodePointKeyLoaderTests {
    static let composed = "e\u{301}"
    static let precomposed = "\u{E9}"

    // MARK: - Compiled paths and patterns

    /// The suite's caches of compiled JSONPath expressions and patterns were `[String: …]`: the second spelling got
    /// the first one's compiled form, so `$['e\u0301']` selected the member `"\u00e9"` and `^e\u0301$` matched
    /// only `"\u00e9"`.
    @Test func canonicallyEqualPathsAndPatternsCompileApart() throws {
        let yaml = """
            baseURL: http://h/
            tests:
              - name: a
                request: {url: a}
                expect:
                  json: {"$['\\u00e9']": 1}
                  body: {matches: "^\\u00e9$"}
              - name: b
                request: {url: b}
                expect:
                  json: {"$['e\\u0301']": 1}
                  body: {matches: "^e\\u0301$"}
            """
        let tests = try loadSuite(yaml).tests
        let body: JSONValue = .object(JSONObject([(key: Self.composed, value: 2), (key: Self.precomposed, value: 1)]))
        for (test, spelling, selected) in [(0, Self.precomposed, 1), (1, Self.composed, 2)] as [(Int, String, Int)] {
            let assertions = tests[test].steps[0].expect.assertions
            guard case .jsonpath(let path) = assertions[0].query else {
                Issue.record("not a JSONPath query: \(assertions[0].query)")
                return
            }
            #expect(path.query(body) == [JSONValue(integerLiteral: Int64(selected))], "test \(test)")
            let pattern = try #require(assertions[1].pattern)
            #expect(pattern.pattern.hasSameCodePoints(as: "^" + spelling + "$"), "test \(test)")
            #expect(pattern.firstMatch(in: spelling), "test \(test)")
        }
    }

    // MARK: - Duplicate keys

    /// The duplicate-key check compared keys as `String`s: a JSON body with both spellings was refused as a
    /// duplicate key. Both are kept, in a small map (compared pairwise) and a large one (hashed).
    @Test(arguments: [0, 20])
    func canonicallyEqualKeysAreDistinct(otherKeys: Int) throws {
        let others = (0..<otherKeys).map { "k\($0): \($0), " }.joined()
        let yaml = """
            baseURL: http://h/
            tests:
              - name: t
                request: {url: a, json: {\(others)"e\\u0301": 1, "\\u00e9": 2, "K": 3, "\\u212A": 4}}
            """
        #expect(errors(yaml) == [])
        // Both members are sent: the entries of a map were kept by String, so the second was dropped silently.
        let request = try loadSuite(yaml).tests[0].steps[0].request
        guard case .json(let body)? = request.body else {
            Issue.record("not a JSON body: \(String(describing: request.body))")
            return
        }
        let sent = String(describing: body)
        #expect(sent.containsCodePoints(Self.composed) && sent.containsCodePoints(Self.precomposed), "\(sent)")
        #expect(sent.containsCodePoints("\u{212A}"), "\(sent)")
        let (document, root) = try YAMLComposer.compose(
            "{\(others)\"e\\u0301\": 1, \"\\u00e9\": 2, \"K\": 3, \"\\u212A\": 4}\n")
        let keys = try #require(root.flatMap { document.pairs(of: $0) }).map { document.scalar($0.key)?.string ?? "" }
        #expect(keys.count == otherKeys + 4)
        #expect(
            keys.suffix(4).map { Array($0.unicodeScalars) } == [
                Array(Self.composed.unicodeScalars), Array(Self.precomposed.unicodeScalars), ["K"], ["\u{212A}"],
            ])
    }

    /// Keys with the same code points are still duplicates, in either size of map.
    @Test(arguments: [0, 20])
    func keysWithTheSameCodePointsAreDuplicates(otherKeys: Int) {
        let others = (0..<otherKeys).map { "k\($0): \($0), " }.joined()
        #expect(throws: YAMLComposeError.self) {
            try YAMLComposer.compose("{\(others)\"e\\u0301\": 1, \"e\\u0301\": 2}\n")
        }
        #expect(throws: YAMLComposeError.self) {
            try YAMLComposer.compose("{\(others)\"\\u00e9\": 1, \u{E9}: 2}\n")
        }
    }

    /// A variables file read through the YAML reader no longer calls its two spellings one duplicated key: each is
    /// reported for what it is (not a valid variable name).
    @Test func variablesFileKeysAreComparedByCodePoints() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try writeFile("\"e\\u0301\": 1\n\"\\u00e9\": 2\n", to: "vars.yaml", in: directory)
        do {
            _ = try VariablesFile.load(path: path)
            Issue.record("loaded")
        } catch {
            let messages = error.diagnostics.map(\.message)
            #expect(!messages.contains { $0.contains("duplicate") }, "\(messages)")
            #expect(messages.count == 2, "\(messages)")
        }
    }
}

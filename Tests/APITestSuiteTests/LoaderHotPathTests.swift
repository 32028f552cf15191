import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The loader's hot paths of issue 38 (placeholders found in a string's contiguous bytes, null spellings ruled out by
/// their first byte, key names compared as two words, untagged map keys compared by their bytes alone, the
/// JSONPath asked for last) give what the general code gives.
@Suite("Loader hot paths")
struct LoaderHotPathTests {
    // MARK: - Placeholders

    /// Every string of up to six characters over `{`, `}`, `x` and `é`: a string may hold placeholders exactly when
    /// it holds `{{`, wherever the braces fall (odd or even offsets, first or last).
    @Test func twoBracesAreFoundAtEveryOffset() {
        let alphabet = ["{", "}", "x", "\u{E9}"]
        var strings = [""]
        var checked = 0
        for _ in 1...6 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + $0 } }
            for string in strings {
                #expect(TemplateScanner.mayHavePlaceholders(string) == string.contains("{{"), "\(string)")
                checked += 1
            }
        }
        #expect(checked == 5_460)
    }

    @Test func longTextsAndSubstrings() {
        let long = String(repeating: "a{b}", count: 100)
        #expect(!TemplateScanner.mayHavePlaceholders(long))
        #expect(TemplateScanner.mayHavePlaceholders(long + "{{"))
        #expect(TemplateScanner.mayHavePlaceholders("{{" + long))
        #expect(TemplateScanner.mayHavePlaceholders(String(long.dropLast()) + "{{ x }}"))
        #expect(!TemplateScanner.mayHavePlaceholders(String(repeating: "{x", count: 50)))
    }

    // MARK: - Null

    @Test func nullSpellingsAndTheirNeighbours() {
        let nulls = ["", "~", "null", "Null", "NULL"]
        let others = [
            "~~", "n", "nul", "nulls", "NUll", "nULL", "None", "none", "NIL", "N", "\u{FF5E}", " null", "null ",
            "Nul", "x", "0",
        ]
        for text in nulls {
            #expect(YAMLScalar.isNullSpelling(text), "\(text)")
            #expect(YAMLScalar(YAMLDocument.Scalar(string: text, style: .plain, tag: .none)) == .null)
            #expect(YAMLScalar.isNull(YAMLDocument.Scalar(string: text, style: .plain, tag: .none)))
            #expect(!YAMLScalar.isNull(YAMLDocument.Scalar(string: text, style: .doubleQuoted, tag: .none)))
        }
        for text in others {
            #expect(!YAMLScalar.isNullSpelling(text), "\(text)")
            #expect(!YAMLScalar.isNull(YAMLDocument.Scalar(string: text, style: .plain, tag: .none)), "\(text)")
        }
    }

    @Test func aNullTestNameIsStillAnError() {
        #expect(
            errors("tests:\n  - name: ~\n    request: {url: 'http://h/'}\n") == [
                "suites/test.yaml:2:11: error: expected a string for 'name', found null"
            ])
        #expect(errors("tests:\n  - name: nul\n    request: {url: 'http://h/'}\n").isEmpty)
    }

    // MARK: - Key names

    /// Names around the 16 bytes kept in a slot: equal prefixes, a difference in the last kept byte or just past it,
    /// a NUL byte where the padding is.
    @Test func namesAroundSixteenBytes() {
        enum Name: String, CaseIterable, Sendable {
            case fifteen = "abcdefghijklmno"
            case sixteen = "abcdefghijklmnop"
            case seventeen = "abcdefghijklmnopq"
            case otherSeventeen = "abcdefghijklmnopr"
            case short = "a"
        }
        let table = KeyTable(Name.allCases)
        for name in Name.allCases { #expect(table.key(named: name.rawValue) == name) }
        for name in [
            "abcdefghijklmnoq", "abcdefghijklmno\u{0}", "abcdefghijklmnopqr", "abcdefghijklmnop\u{0}", "a\u{0}",
            "\u{0}", "", "abcdefghijklmnopp", "bbcdefghijklmnop",
        ] {
            #expect(table.key(named: name) == nil, "\(name.debugDescription)")
        }
        #expect(table.key(named: String("xabcdefghijklmnop".dropFirst())) == .sixteen)
    }

    // MARK: - Map keys

    @Test func duplicateKeysAreFoundWhateverTheirStyle() {
        for text in ["{a: 1, a: 2}", "{\"a\": 1, a: 2}", "{a: 1, 'a': 2}", "{! a: 1, a: 2}", "{!!str a: 1, a: 2}"] {
            #expect(throws: YAMLComposeError.self, "\(text)") { try YAMLComposer.compose(text) }
        }
        for text in ["{a: 1, b: 2}", "{ab: 1, ba: 2}", "{a: 1, aa: 2}", "{!!int 1: a, \"1\": b}", "{!x a: 1, a: 2}"] {
            #expect(throws: Never.self, "\(text)") { try YAMLComposer.compose(text) }
        }
    }

    /// A map with a tagged key that the composer lets through beside its plain spelling keeps the first entry; a
    /// quoted `<<` is a key, not a merge.
    @Test func taggedKeysAndMergeKeys() throws {
        let loaded = try loadSuite(
            """
            tests:
              - name: t
                request:
                  url: 'http://h/'
                  headers: {<<: {X-A: "1"}, X-B: "2"}
                expect: {json: {!!str $.a: 1, "$.b": 2}}
            """)
        let step = loaded.tests[0].steps[0]
        #expect(step.request.headers.map(\.name) == ["X-A", "X-B"])
        #expect(step.expect.assertions.map(\.query.description) == ["$.a", "$.b"])
        #expect(
            errors("tests:\n  - name: t\n    request: {url: 'http://h/', \"<<\": {method: PUT}}\n") == [
                "suites/test.yaml:3:33: error: unknown key '<<' in request"
            ])
    }

    // MARK: - JSONPaths

    /// The path asked for last is reused only for the same code points: a canonically equal path is compiled on its
    /// own, and every test keeps its own path.
    @Test func theLastPathIsReusedOnlyForTheSameCodePoints() throws {
        let composed = "$['caf\u{E9}']"
        let decomposed = "$['cafe\u{301}']"
        let tests = [composed, composed, decomposed, "$.a", composed, "$.a", "$.a"].enumerated().map { index, path in
            "  - name: t\(index)\n    request: {url: 'http://h/'}\n    expect: {json: {\"\(path)\": 1}}\n"
        }
        let loaded = try loadSuite("tests:\n" + tests.joined())
        let paths = loaded.tests.map { test -> String? in
            guard case .jsonpath(let path) = test.steps[0].expect.assertions.first?.query else { return nil }
            return path.expression
        }
        #expect(paths == [composed, composed, decomposed, "$.a", composed, "$.a", "$.a"])
        #expect(paths[2]?.unicodeScalars.elementsEqual(decomposed.unicodeScalars) == true)
        #expect(paths[4]?.unicodeScalars.elementsEqual(composed.unicodeScalars) == true)
    }
}

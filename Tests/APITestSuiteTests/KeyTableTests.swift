import Testing

@testable import APITestSuite

/// The key tables the suite parser looks every key up in (`SuiteKey.byName`).
@Suite struct KeyTableTests {
    /// A key enum with names that collide in a table of eight slots, to exercise probing.
    enum Letter: String, CaseIterable, Sendable {
        case a, b, c, d, e, f, g, h, i, j, k
        case longer = "a name longer than fifteen bytes"
    }

    @Test func everyCaseIsFoundByItsNameAndNothingElse() {
        let table = KeyTable(Letter.allCases)
        for letter in Letter.allCases { #expect(table.key(named: letter.rawValue) == letter) }
        for name in ["", "A", "l", "ab", "a name longer than fifteen byte", "a name longer than fifteen bytes "] {
            #expect(table.key(named: name) == nil, "\(name)")
        }
    }

    /// A table of keys that are not `RawRepresentable` (the table's type requires nothing of its keys, so that making
    /// its metadata at start-up searches no conformance): each key is found by the name it was given.
    @Test func keysOfAnyTypeAreFoundByTheirGivenNames() {
        struct Opaque: Equatable, Sendable { let number: Int }
        let keys = (0..<20).map(Opaque.init)
        let table = KeyTable(keys) { "key \($0.number)" }
        for key in keys { #expect(table.key(named: "key \(key.number)") == key) }
        #expect(table.key(named: "key 20") == nil)
        #expect(table.key(named: "key") == nil)
    }

    @Test func theConstructsKeysAnswerAsTheirRawValues() {
        for key in RequestParser.Key.allCases { #expect(RequestParser.Key(named: key.rawValue) == key) }
        for key in TestParser.Key.allCases { #expect(TestParser.Key(named: key.rawValue) == key) }
        for key in ExpectParser.Key.allCases { #expect(ExpectParser.Key(named: key.rawValue) == key) }
        #expect(RequestParser.Key(named: "stauts") == nil)
        #expect(RequestParser.Key(named: "") == nil)
    }

    /// A name is a key only with the key's exact code points: `init(rawValue:)` compares by canonical equivalence, under
    /// which the Kelvin sign (U+212A) is the letter K and a decomposed é is the composed one.
    @Test func aCanonicallyEquivalentSpellingIsNotTheKey() {
        enum Word: String, CaseIterable, Sendable {
            case kelvin = "Key"
            case cafe = "caf\u{E9}"
        }
        let table = KeyTable(Word.allCases)
        #expect(Word(rawValue: "\u{212A}ey") == .kelvin)
        #expect(table.key(named: "\u{212A}ey") == nil)
        #expect(Word(rawValue: "cafe\u{301}") == .cafe)
        #expect(table.key(named: "cafe\u{301}") == nil)
        #expect(table.key(named: "caf\u{E9}") == .cafe)
    }
}

import APITestSupport
import Foundation
import Testing

/// The lookups that compare a few keys in turn must answer as the hashed lookups they stand for, below and above the
/// size where they switch, for canonically equivalent spellings too.
@Suite struct SmallLookupTests {
    static let keys = [
        "id", "name", "roles", "é", "application/json", String(repeating: "long-key-", count: 4),
        NSString(string: "bridged").description, "e\u{301}x", "x", "y", "z", "w",
    ]
    static let probes = ["id", "Name", "roles", "e\u{301}", "\u{E9}x", "application/json", "bridged", "missing", ""]

    @Test(arguments: [0, 1, 3, 8, 9, 12])
    func setsAnswerAsContains(size: Int) {
        let set = Set(Self.keys.prefix(size))
        for probe in Self.probes + Self.keys {
            #expect(set.containsComparingFew(probe) == set.contains(probe), "\(probe) in \(size) keys")
        }
    }

    @Test(arguments: [0, 1, 3, 8, 9, 12])
    func dictionariesAnswerAsTheSubscript(size: Int) {
        var dictionary: [String: Int] = [:]
        for (index, key) in Self.keys.prefix(size).enumerated() { dictionary[key] = index }
        for probe in Self.probes + Self.keys {
            #expect(dictionary.valueComparingFew(forKey: probe) == dictionary[probe], "\(probe) in \(size) keys")
        }
    }
}

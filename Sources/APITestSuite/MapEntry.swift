import APITestJSON
import APITestSupport
import APITestYAML

/// One key and value of a YAML map.
struct MapEntry {
    let key: String
    let keyNode: YAMLNode
    let value: YAMLNode
}

extension [MapEntry] {
    /// The entry with `key` (map entries have distinct keys).
    subscript(key key: String) -> MapEntry? {
        first { $0.key == key }
    }
}

/// Map entries with distinct keys, in order: the first entry with a key wins.
struct EntryList {
    /// Up to this many entries, a new key is looked up by scanning them; beyond, through a set.
    private static let scanLimit = 16

    private(set) var entries: [MapEntry] = []
    /// The keys, by code points (`"e\u0301"` and `"\u00e9"` are two keys, as in JSON), once past `scanLimit`.
    private var keys: Set<CodePointKey> = []

    /// An empty list with room for `capacity` entries.
    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// Appends `entry` unless an entry with its key is there already.
    mutating func appendIfNew(_ entry: MapEntry) {
        if entries.count < Self.scanLimit {
            guard !entries.contains(where: { $0.key.hasSameCodePoints(as: entry.key) }) else { return }
        } else {
            if keys.isEmpty { keys = Set(entries.map { CodePointKey($0.key) }) }
            guard keys.insert(CodePointKey(entry.key)).inserted else { return }
        }
        entries.append(entry)
    }
}

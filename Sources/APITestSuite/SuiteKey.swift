import APITestSecurity
import APITestSupport
import APITestYAML

/// The keys of one construct of the suite format (the suite, a test, a request, `expect`, an auth kind ...), declared
/// once as an enum: its parser switches over it, the unknown-key error and its did-you-mean list its cases (in
/// declaration order, which decides between equally close suggestions), and the editor schema takes each key's
/// fragment from it. `SecuritySetting` is the model.
protocol SuiteKey: RawRepresentable<String>, CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// The key's fragment of the editor schema: what its value may be, with its description.
    var schema: SchemaValue { get }

    /// Every key by its name: `static let byName = KeyTable(allCases)` in each construct's enum, built once,
    /// because every key of every map of a suite is looked up (twice: once to check it, once to parse it) and
    /// `init(rawValue:)` compares the name with each case in turn.
    static var byName: KeyTable<Self> { get }
}

extension SuiteKey {
    /// The keys as written, in declaration order.
    static var names: [String] { allCases.map(\.rawValue) }

    /// The key written `name`, or `nil` when the construct has none of exactly those code points (``byName``).
    init?(named name: String) {
        guard let key = Self.byName.key(named: name) else { return nil }
        self = key
    }
}

/// The settings of `security:` (``SecuritySetting``, of the security model) are its keys.
extension SecuritySetting: SuiteKey {
    /// Every setting by its name, built once (``SuiteKey/init(named:)``).
    static let byName = KeyTable(allCases)
}

// MARK: - Checking keys

extension SuiteParseContext {
    /// Reports every key that is not a `Key`, with a did-you-mean among its keys; `construct` names the map in the
    /// message (`request`, `the suite`, `a group of steps`).
    func checkKeys<Key: SuiteKey>(_ entries: [MapEntry], of _: Key.Type, in construct: String) {
        for entry in entries where Key(named: entry.key) == nil {
            unknownKey(entry, in: construct, names: Key.names)
        }
    }

    /// Reports every key that is neither a `Key` nor an `Other`, the keys of a construct that takes in another's
    /// (a request's transport keys); the suggestions list `Key`'s keys, then `Other`'s.
    func checkKeys<Key: SuiteKey, Other: SuiteKey>(
        _ entries: [MapEntry], of _: Key.Type, and _: Other.Type, in construct: String
    ) {
        for entry in entries where Key(named: entry.key) == nil && Other(named: entry.key) == nil {
            unknownKey(entry, in: construct, names: Key.names + Other.names)
        }
    }

    /// The unknown-key error of `entry`, with a did-you-mean: the key `entry.key` is another name of
    /// (``KeyAlias``), else the closest key by spelling.
    private func unknownKey(_ entry: MapEntry, in construct: String, names: [String]) {
        error(
            "unknown key '\(entry.key)' in \(construct)" + KeyAlias.didYouMean(entry.key, in: names), at: entry.keyNode)
    }
}

// MARK: - Looking keys up

extension [MapEntry] {
    /// The entry of `key` (map entries have distinct keys).
    subscript<Key: SuiteKey>(key: Key) -> MapEntry? {
        first { $0.key == key.rawValue }
    }
}

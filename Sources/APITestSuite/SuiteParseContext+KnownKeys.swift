import APITestYAML

// MARK: - Maps of known keys

/// Reading a map whose keys are all keys of one construct (nearly every map of a suite) without a `String` per key
/// or an array of entries: each key is looked up by its bytes in the document.
extension SuiteParseContext {
    /// One entry of a map whose key is one of a construct's keys, `Key`.
    struct KnownEntry<Key> {
        let key: Key
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    /// The most entries a map read by ``forEachKnownEntry(of:_:_:)`` may have (the keys are kept on the stack).
    static let knownEntryLimit = 32

    /// Calls `body` with each entry of the map `node`, in document order, and returns true, when every key of the
    /// map is one of `Key`'s, written as an untagged scalar, and the map has at most ``knownEntryLimit`` entries.
    /// Otherwise (another node, a merge key `<<`, a tagged, list or map key, a key that is not a `Key`) it calls
    /// nothing and returns false: the caller reads the map through `mapping(_:for:)` and `checkKeys`, which report
    /// what there is to report. Such a map yields from `mapping(_:for:)` exactly these entries in this order
    /// (untagged keys are distinct, the composer rejects a map with two), and `checkKeys` reports nothing on it, so
    /// the two ways read it alike.
    func forEachKnownEntry<Key: SuiteKey>(
        of node: YAMLNode, _: Key.Type, _ body: (KnownEntry<Key>) -> Void
    ) -> Bool {
        let table = Key.byName
        return document.records.withUnsafeBufferPointer { records in
            let record = records[Int(node.index)]
            guard case .mapping = record.kind else { return false }
            let count = Int(record.count) / 2
            guard count <= Self.knownEntryLimit else { return false }
            return document.children.withUnsafeBufferPointer { children in
                document.scalarBytes.withUnsafeBufferPointer { bytes in
                    withUnsafeTemporaryAllocation(of: Key.self, capacity: max(count, 1)) { keys in
                        let first = Int(record.start)
                        for index in 0..<count {
                            let key = records[Int(children[first + index * 2].index)]
                            guard case .scalar = key.kind, key.tag == -1,
                                let found = table.key(
                                    bytes: UnsafeBufferPointer(
                                        rebasing: bytes[Int(key.start)..<Int(key.start + key.count)]))
                            else {
                                // The keys found so far are trivial values (a construct's keys are plain enums).
                                return false
                            }
                            (keys.baseAddress! + index).initialize(to: found)
                        }
                        for index in 0..<count {
                            body(
                                KnownEntry(
                                    key: keys[index], keyNode: children[first + index * 2],
                                    value: children[first + index * 2 + 1]))
                        }
                        return true
                    }
                }
            }
        }
    }

    /// The entries of the map `node` when every key is one of `Key`'s, as ``forEachKnownEntry(of:_:_:)`` reads
    /// them, each key's text its name (no text made from the document); `nil` otherwise.
    func knownEntries<Key: SuiteKey>(of node: YAMLNode, _: Key.Type) -> [MapEntry]? {
        var entries: [MapEntry] = []
        entries.reserveCapacity(document.pairs(of: node)?.count ?? 0)
        let read = forEachKnownEntry(of: node, Key.self) { entry in
            entries.append(MapEntry(key: entry.key.rawValue, keyNode: entry.keyNode, value: entry.value))
        }
        return read ? entries : nil
    }

    /// Calls `body` with each entry of the map `node`, in document order, and returns true, when every key is an
    /// untagged scalar other than the merge key `<<` and the map has at most ``knownEntryLimit`` entries (a map of
    /// names: `headers`, `json`); otherwise calls nothing and returns false, and the caller reads the map through
    /// `mapping(_:for:)`. Such a map yields from `mapping(_:for:)` exactly these entries, with these texts, in this
    /// order (untagged keys are distinct), without the array it makes.
    func forEachPlainEntry(of node: YAMLNode, _ body: (MapEntry) -> Void) -> Bool {
        let isPlain = document.records.withUnsafeBufferPointer { records in
            let record = records[Int(node.index)]
            guard case .mapping = record.kind, Int(record.count) / 2 <= Self.knownEntryLimit else { return false }
            return document.children.withUnsafeBufferPointer { children in
                document.scalarBytes.withUnsafeBufferPointer { bytes in
                    var position = Int(record.start)
                    while position < Int(record.start + record.count) {
                        let key = records[Int(children[position].index)]
                        guard case .scalar = key.kind, key.tag == -1 else { return false }
                        if key.count == 2, bytes[Int(key.start)] == UInt8(ascii: "<"),
                            bytes[Int(key.start) + 1] == UInt8(ascii: "<")
                        {
                            // `<<` is the merge key unless quoted, and a quoted key has a tag.
                            return false
                        }
                        position += 2
                    }
                    return true
                }
            }
        }
        guard isPlain, let pairs = document.pairs(of: node) else { return false }
        for (keyNode, value) in pairs {
            let record = document.records[Int(keyNode.index)]
            let key: String
            if record.count <= KeyTextCache.maximumLength {
                key = document.withBytes(of: record) { keyTexts.text(of: $0) }
            } else if record.count <= Self.sharedTextLength {
                key = document.text(of: record)
            } else {
                key = scalar(keyNode)?.string ?? ""
            }
            body(MapEntry(key: key, keyNode: keyNode, value: value))
        }
        return true
    }
}

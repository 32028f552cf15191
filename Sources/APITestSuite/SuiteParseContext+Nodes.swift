import APITestJSON
import APITestSupport
import APITestYAML

// MARK: - Nodes, locations and descriptions

/// Reading the nodes of the file being parsed, and reporting problems located in it.
extension SuiteParseContext {
    /// True for a map node. (Matched as a pattern: `==` on the other module's enum goes through its witness.)
    func isMapping(_ node: YAMLNode) -> Bool {
        if case .mapping = document.kind(of: node) { true } else { false }
    }

    /// True for a list node.
    func isSequence(_ node: YAMLNode) -> Bool {
        if case .sequence = document.kind(of: node) { true } else { false }
    }

    /// The scalar of a scalar node, or `nil`.
    ///
    /// The document keeps scalars as bytes and makes a `String` at each read; the text of a long scalar is made
    /// once and kept, so that the aliases of one (a 1 MiB scalar aliased 1,000 times) share one copy, as they share
    /// one node.
    func scalar(_ node: YAMLNode) -> YAMLDocument.Scalar? {
        guard document.byteCount(of: node) > Self.sharedTextLength else { return document.scalar(node) }
        if let text = longScalarTexts[node] { return document.scalar(node, text: text) }
        guard let scalar = document.scalar(node) else { return nil }
        longScalarTexts[node] = scalar.string
        return scalar
    }

    /// Scalars longer than this many bytes have their text kept once read (see `scalar(_:)`).
    static let sharedTextLength = 1024

    /// Where a node starts.
    func location(of node: YAMLNode) -> SourceLocation {
        let mark = document.mark(of: node)
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// How many characters of its first line a node spans, for the caret underline.
    func length(of node: YAMLNode) -> Int {
        guard let scalar = scalar(node) else { return 1 }
        switch scalar.style {
        case .plain, .any:
            guard scalar.string.utf8.contains(UInt8(ascii: "\n")) else {
                return max(1, scalar.string.unicodeScalars.count)
            }
            let firstLine = scalar.string.prefix { $0 != "\n" }
            return max(1, firstLine.unicodeScalars.count)
        case .singleQuoted, .doubleQuoted:
            // libyaml's end mark gives the width, when its lines and columns are those of `text`.
            if let width = document.quotedWidth(of: node), marksMatchText { return width }
            let mark = document.mark(of: node)
            guard let line = text.line(mark.line) else { return 1 }
            return quotedLength(line: line, start: mark.column - 1, quote: scalar.style == .singleQuoted ? "'" : "\"")
        case .literal, .folded:
            return 1
        }
    }

    /// The length of a quoted scalar on its line, quotes included; to the end of the line when it goes on.
    private func quotedLength(line: [Unicode.Scalar], start: Int, quote: Unicode.Scalar) -> Int {
        guard start >= 0, start < line.count else { return 1 }
        var index = start + 1
        while index < line.count {
            let scalar = line[index]
            if quote == "\"", scalar == "\\" {
                index += 2
                continue
            }
            if scalar == quote {
                if quote == "'", index + 1 < line.count, line[index + 1] == "'" {
                    index += 2
                    continue
                }
                return index - start + 1
            }
            index += 1
        }
        return max(1, line.count - start)
    }

    /// `a map`, `a list`, `a string`, `a number`, `a boolean` or `null`, for messages.
    func kindName(of node: YAMLNode) -> String {
        switch document.kind(of: node) {
        case .mapping: "a map"
        case .sequence: "a list"
        case .scalar: scalar(node).map { YAMLScalar($0).kindName } ?? "a string"
        }
    }

    // MARK: - Diagnostics

    /// Reports an error at `node`, underlining its first line.
    func error(_ message: String, at node: YAMLNode, note: String? = nil) {
        report(.error(message, at: location(of: node), length: length(of: node), note: note))
    }

    /// Reports an error at `location`, underlining `length` characters.
    func error(_ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil) {
        report(.error(message, at: location, length: length, note: note))
    }

    /// Reports a warning at `node`.
    func warning(_ message: String, at node: YAMLNode, note: String? = nil) {
        report(.warning(message, at: location(of: node), length: length(of: node), note: note))
    }

    /// Reports `expected <expected> for '<name>', found <kind>` at `node`.
    func typeError(expected: String, for name: String, found node: YAMLNode) {
        error("expected \(expected) for '\(name)', found \(kindName(of: node))", at: node)
    }

    // MARK: - Maps and lists

    /// The entries of a map node, with YAML merge keys (`<<: *anchor`) expanded. A null value (`expect:` with
    /// nothing after it) is an empty map. Reports a type error and returns `nil` for other nodes.
    func mapping(_ node: YAMLNode, for name: String) -> [MapEntry]? {
        if isMapping(node) { return entries(of: node, depth: 0) }
        if let scalar = scalar(node), YAMLScalar.isNull(scalar) { return [] }
        typeError(expected: "a map", for: name, found: node)
        return nil
    }

    /// The entries of a map node, merge keys expanded (`depth` counts nested merges).
    private func entries(of map: YAMLNode, depth: Int) -> [MapEntry] {
        guard let pairs = document.pairs(of: map) else { return [] }
        if let entries = plainEntries(of: pairs) { return entries }
        var explicitKeys: Set<CodePointKey> = []
        if pairs.contains(where: { scalar($0.key).map(isMergeKey) == true }) {
            for (keyNode, _) in pairs {
                guard let key = scalar(keyNode), !isMergeKey(key) else { continue }
                explicitKeys.insert(CodePointKey(key.string))
            }
        }
        var result = EntryList(capacity: pairs.count)
        for (keyNode, value) in pairs {
            guard let key = scalar(keyNode) else {
                error("expected a plain key, found \(kindName(of: keyNode))", at: keyNode)
                continue
            }
            if isMergeKey(key) {
                for entry in mergedEntries(value, depth: depth) where !explicitKeys.contains(CodePointKey(entry.key)) {
                    result.appendIfNew(entry)
                }
            } else {
                result.appendIfNew(MapEntry(key: key.string, keyNode: keyNode, value: value))
            }
        }
        return result.entries
    }

    /// The entries of a small map whose keys are all scalars and none a merge key (nearly every map), in one pass;
    /// `nil` for another map. Two keys with the same code points are kept once, the first, as `EntryList` keeps them (the
    /// composer rejects most such maps; a key with a tag of its own, `!!int 1` beside `"1"`, gets through).
    private func plainEntries(of pairs: YAMLDocument.Pairs) -> [MapEntry]? {
        let count = pairs.count
        guard count <= 8 else { return nil }
        var entries: [MapEntry] = []
        entries.reserveCapacity(count)
        // Untagged keys are distinct by code points (the composer rejects a map with two), so a key is compared
        // with the others only once a tagged key has come.
        var hasTaggedKey = false
        // The tables are read through their buffers: a record's kind compared by pattern, not through `==`'s
        // witness, and no bounds checks or iterator calls across the module boundary.
        let read = document.records.withUnsafeBufferPointer { records in
            pairs.nodes.withUnsafeBufferPointer { nodes in
                document.scalarBytes.withUnsafeBufferPointer { bytes in
                    var position = 0
                    while position + 1 < nodes.count {
                        let (keyNode, value) = (nodes[position], nodes[position + 1])
                        position += 2
                        let record = records[Int(keyNode.index)]
                        guard case .scalar = record.kind else { return false }
                        let text = UnsafeBufferPointer(
                            rebasing: bytes[Int(record.start)..<Int(record.start + record.count)])
                        // The merge key `<<`: `isMergeKey(_:)` without making the key's text.
                        if record.count == 2, text[0] == UInt8(ascii: "<"), text[1] == UInt8(ascii: "<"),
                            Self.isPlain(record.style)
                        {
                            return false
                        }
                        // A key's text alone (not its typed scalar): a short one from the keys read before, a long
                        // one through `scalar(_:)`, which keeps it.
                        let key: String
                        if record.count <= KeyTextCache.maximumLength {
                            key = keyTexts.text(of: text)
                        } else if record.count <= Self.sharedTextLength {
                            key = String(decoding: text, as: UTF8.self)
                        } else {
                            key = scalar(keyNode)?.string ?? ""
                        }
                        if record.tag != -1 { hasTaggedKey = true }
                        if hasTaggedKey, entries.contains(where: { $0.key.hasSameCodePoints(as: key) }) { continue }
                        entries.append(MapEntry(key: key, keyNode: keyNode, value: value))
                    }
                    return true
                }
            }
        }
        return read ? entries : nil
    }

    /// True for a plain scalar's style (matched as a pattern: `==` on the other module's enum goes through its
    /// witness).
    private static func isPlain(_ style: YAMLDocument.Style) -> Bool {
        switch style {
        case .plain, .any: true
        default: false
        }
    }

    /// True for the plain key `<<`.
    private func isMergeKey(_ key: YAMLDocument.Scalar) -> Bool {
        key.string == "<<" && (key.style == .plain || key.style == .any)
    }

    /// The entries a merge key brings in: those of a map, or of each map of a list.
    private func mergedEntries(_ value: YAMLNode, depth: Int) -> [MapEntry] {
        guard depth < 32 else { return [] }
        if isMapping(value) {
            return entries(of: value, depth: depth + 1)
        }
        guard let items = document.items(of: value) else {
            error("a merge key '<<' takes a map or a list of maps, found \(kindName(of: value))", at: value)
            return []
        }
        var result = EntryList(capacity: 0)
        for item in items {
            guard isMapping(item) else {
                error("a merge key '<<' takes a map or a list of maps, found \(kindName(of: item))", at: item)
                continue
            }
            for entry in entries(of: item, depth: depth + 1) {
                result.appendIfNew(entry)
            }
        }
        return result.entries
    }

    /// The value of a plain scalar key of a map, without reporting anything (the map was checked already).
    func plainValue(forKey key: String, in map: YAMLNode) -> YAMLNode? {
        document.pairs(of: map)?.first { scalar($0.key)?.string == key }?.value
    }

    /// The items of a list node; reports a type error and returns `nil` for other nodes.
    func sequence(_ node: YAMLNode, for name: String) -> ArraySlice<YAMLNode>? {
        guard let items = document.items(of: node) else {
            typeError(expected: "a list", for: name, found: node)
            return nil
        }
        return items
    }
}

import APITestSupport
import Yams

/// One key and value of a YAML map.
struct MapEntry {
    let key: String
    let keyNode: Node
    let value: Node
}

// MARK: - Locations and descriptions

extension SuiteParser {
    /// Where a node starts; the start of the file when Yams gives no mark.
    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// How many characters of its first line a node spans, for the caret underline.
    func length(of node: Node) -> Int {
        guard case .scalar(let scalar) = node, let mark = node.mark else { return 1 }
        switch scalar.style {
        case .plain, .any:
            let firstLine = scalar.string.prefix { $0 != "\n" }
            return max(1, firstLine.unicodeScalars.count)
        case .singleQuoted, .doubleQuoted:
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
    func kindName(of node: Node) -> String {
        switch node {
        case .mapping: return "a map"
        case .sequence: return "a list"
        case .scalar(let scalar): return YAMLScalar(scalar).kindName
        case .alias: return "an alias"
        }
    }

    // MARK: - Diagnostics

    func error(_ message: String, at node: Node, note: String? = nil) {
        diagnostics.append(.error(message, at: location(of: node), length: length(of: node), note: note))
    }

    func error(_ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil) {
        diagnostics.append(.error(message, at: location, length: length, note: note))
    }

    func warning(_ message: String, at node: Node, note: String? = nil) {
        diagnostics.append(.warning(message, at: location(of: node), length: length(of: node), note: note))
    }

    /// Reports `expected <expected> for '<name>', found <kind>` at `node`.
    func typeError(expected: String, for name: String, found node: Node) {
        error("expected \(expected) for '\(name)', found \(kindName(of: node))", at: node)
    }

    // MARK: - Maps and lists

    /// The entries of a map node, with YAML merge keys (`<<: *anchor`) expanded. A null value (`expect:` with
    /// nothing after it) is an empty map. Reports a type error and returns `nil` for other nodes.
    func mapping(_ node: Node, for name: String) -> [MapEntry]? {
        if case .scalar(let scalar) = node, YAMLScalar(scalar) == .null { return [] }
        guard case .mapping(let map) = node else {
            typeError(expected: "a map", for: name, found: node)
            return nil
        }
        return entries(of: map, depth: 0)
    }

    private func entries(of map: Node.Mapping, depth: Int) -> [MapEntry] {
        let explicitKeys = Set(
            map.compactMap { pair -> String? in
                guard case .scalar(let key) = pair.key, !isMergeKey(key) else { return nil }
                return key.string
            })
        var seen = Set<String>()
        var result: [MapEntry] = []
        for (keyNode, value) in map {
            guard case .scalar(let key) = keyNode else {
                error("expected a plain key, found \(kindName(of: keyNode))", at: keyNode)
                continue
            }
            if isMergeKey(key) {
                for entry in mergedEntries(value, depth: depth)
                where !explicitKeys.contains(entry.key) && seen.insert(entry.key).inserted {
                    result.append(entry)
                }
            } else if seen.insert(key.string).inserted {
                result.append(MapEntry(key: key.string, keyNode: keyNode, value: value))
            }
        }
        return result
    }

    private func isMergeKey(_ key: Node.Scalar) -> Bool {
        key.string == "<<" && (key.style == .plain || key.style == .any)
    }

    private func mergedEntries(_ value: Node, depth: Int) -> [MapEntry] {
        guard depth < 32 else { return [] }
        switch value {
        case .mapping(let map):
            return entries(of: map, depth: depth + 1)
        case .sequence(let items):
            var result: [MapEntry] = []
            var seen = Set<String>()
            for item in items {
                guard case .mapping(let map) = item else {
                    error("a merge key '<<' takes a map or a list of maps, found \(kindName(of: item))", at: item)
                    continue
                }
                for entry in entries(of: map, depth: depth + 1) where seen.insert(entry.key).inserted {
                    result.append(entry)
                }
            }
            return result
        default:
            error("a merge key '<<' takes a map or a list of maps, found \(kindName(of: value))", at: value)
            return []
        }
    }

    /// Reports every key not in `allowed`, with a did-you-mean suggestion.
    func checkKeys(_ entries: [MapEntry], allowed: [String], in context: String) {
        for entry in entries where !allowed.contains(entry.key) {
            error(
                "unknown key '\(entry.key)' in \(context)" + Suggestion.didYouMean(entry.key, in: allowed),
                at: entry.keyNode)
        }
    }

    /// The items of a list node; reports a type error and returns `nil` for other nodes.
    func sequence(_ node: Node, for name: String) -> [Node]? {
        guard case .sequence(let items) = node else {
            typeError(expected: "a list", for: name, found: node)
            return nil
        }
        return Array(items)
    }
}

package import APITestJSON
import Foundation

/// A composed YAML document as a JSON value, and the nodes that JSON pointers name: what files read as data (an
/// OpenAPI document and the files its `$ref`s name) need from the suite layer's YAML.
extension YAMLDocument {
    // MARK: - JSON values

    /// Why a node has no JSON value.
    package enum JSONConversionProblem: Error, Equatable {
        /// A map key that is not a scalar (`? [a, b]: c`).
        case complexKey(YAMLNode)
        /// Deeper than ``maximumJSONDepth``: a hostile document, or an alias that nests a node inside itself.
        case tooDeep(YAMLNode)
        /// Aliases that expand to far more values than the document holds (the "billion laughs"): the node where
        /// the budget ran out.
        case aliasExpansion(YAMLNode)
    }

    /// The deepest nesting converted, the load budget's (`LoadBudget.maximumNesting`): far beyond any real document,
    /// well within the stack.
    package static let maximumJSONDepth = LoadBudget.maximumNesting

    /// `node` and everything under it as JSON: scalars typed by the YAML 1.2 core schema (`YAMLScalar`), map keys
    /// as their text (`200:` is the key `"200"`), aliases expanded.
    /// Aliases may repeat what they name, but the values made stay within four times the document's nodes (plus
    /// 100,000): a document of aliases of aliases fails instead of filling the memory.
    package func jsonValue(of node: YAMLNode) throws(JSONConversionProblem) -> JSONValue {
        var budget = 4 * records.count + 100_000
        return try jsonValue(of: node, depth: 0, budget: &budget)
    }

    private func jsonValue(
        of node: YAMLNode, depth: Int, budget: inout Int
    ) throws(JSONConversionProblem)
        -> JSONValue
    {
        guard depth < Self.maximumJSONDepth else { throw .tooDeep(node) }
        budget -= 1
        guard budget >= 0 else { throw .aliasExpansion(node) }
        switch kind(of: node) {
        case .scalar:
            guard let scalar = scalar(node) else { return .null }
            switch YAMLScalar(scalar) {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .integer(let value): return .integer(value)
            case .double(let value): return .double(value)
            case .number(let value): return .number(value)
            case .string(let value): return .string(value)
            }
        case .sequence:
            var values: [JSONValue] = []
            for item in items(of: node) ?? [] {
                values.append(try jsonValue(of: item, depth: depth + 1, budget: &budget))
            }
            return .array(values)
        case .mapping:
            var members: [JSONObject.Member] = []
            for (key, value) in pairs(of: node) ?? Pairs(nodes: []) {
                guard let keyScalar = scalar(key) else { throw .complexKey(key) }
                members.append(
                    (key: keyScalar.string, value: try jsonValue(of: value, depth: depth + 1, budget: &budget)))
            }
            return .object(JSONObject(members))
        }
    }

    // MARK: - JSON pointers

    /// Where the value that `tokens` (a JSON pointer's reference tokens, unescaped) name from `root` is declared: the
    /// key of a map member (`get:`, where a reader looks for it), the item of a list; the deepest node on the way
    /// when the pointer leads nowhere. Scans each map's keys: for many lookups in large maps, ``YAMLPointerLocator``.
    package func node(at tokens: [String], from root: YAMLNode) -> YAMLNode {
        node(at: tokens, from: root) { map, token in
            pairs(of: map)?.first(where: { scalar($0.key)?.string.hasSameCodePoints(as: token) ?? false })
        }
    }

    /// The walk of ``node(at:from:)``, with the lookup of a key in a map given.
    package func node(
        at tokens: [String], from root: YAMLNode, member: (YAMLNode, String) -> (key: YAMLNode, value: YAMLNode)?
    ) -> YAMLNode {
        var current = root
        for (position, token) in tokens.enumerated() {
            switch kind(of: current) {
            case .scalar:
                return current
            case .sequence:
                guard let items = items(of: current), let index = Int(token),
                    items.indices.contains(items.startIndex + index)
                else { return current }
                current = items[items.startIndex + index]
            case .mapping:
                guard let pair = member(current, token) else { return current }
                if position == tokens.count - 1 { return pair.key }
                current = pair.value
            }
        }
        return current
    }
}

// MARK: - YAMLPointerLocator

/// Finds the nodes JSON pointers name in one composed document, many times: each map with more than a few keys gets
/// an index of its keys the first time a pointer goes through it, so locating every operation of an OpenAPI document
/// with thousands of paths costs a lookup per step, not a scan of the `paths` map each time. Safe to share between
/// threads (its document is never changed).
package final class YAMLPointerLocator: @unchecked Sendable {
    package let document: YAMLDocument
    package let root: YAMLNode
    private let lock = NSLock()
    /// The keys of the large maps looked into so far, by code points (JSON pointer tokens name members exactly).
    private var indexes: [YAMLNode: [CodePointKey: (key: YAMLNode, value: YAMLNode)]] = [:]
    /// Up to this many keys, a map is scanned.
    private static let scanLimit = 16

    package init(document: YAMLDocument, root: YAMLNode) {
        self.document = document
        self.root = root
    }

    /// See ``YAMLDocument/node(at:from:)``.
    package func node(at tokens: [String]) -> YAMLNode {
        document.node(at: tokens, from: root) { map, token in member(token, of: map) }
    }

    private func member(_ token: String, of map: YAMLNode) -> (key: YAMLNode, value: YAMLNode)? {
        guard let pairs = document.pairs(of: map) else { return nil }
        guard pairs.count > Self.scanLimit else {
            return pairs.first(where: { document.scalar($0.key)?.string.hasSameCodePoints(as: token) ?? false })
        }
        lock.lock()
        defer { lock.unlock() }
        if let index = indexes[map] { return index[CodePointKey(token)] }
        var index: [CodePointKey: (key: YAMLNode, value: YAMLNode)] = [:]
        index.reserveCapacity(pairs.count)
        for pair in pairs {
            // The first of repeated keys wins, as in the scan (the composer reports duplicates anyway).
            if let key = document.scalar(pair.key)?.string, index[CodePointKey(key)] == nil {
                index[CodePointKey(key)] = pair
            }
        }
        indexes[map] = index
        return index[CodePointKey(token)]
    }
}

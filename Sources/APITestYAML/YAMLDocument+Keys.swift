import APITestJSON
import Foundation

/// Map keys: marking them (their scalars type as strings) and finding duplicates the way Yams does, except that
/// text compares by code points.
///
/// Yams compares keys as `Node`s: scalars by text and resolved tag (with the basic resolver an untagged or `!`
/// scalar is a `str`, so `a` and `"a"` are the same key), lists and maps structurally. It reports the duplicated
/// key that sorts first (`Node`'s `<`), at its first occurrence. Where that order leaves a choice (keys of different
/// kinds, which Yams' `<` leaves unordered, so that its pick depends on the process's hash seed), the first one in
/// the document is reported. Yams compares text as `String`s do, by canonical equivalence, so `"e\u0301"` and
/// `"\u00e9"` would be one key; they are distinct JSON member names (RFC 8259 §8.3), and a suite's JSON body, a
/// variables file and an OpenAPI document may hold both, so keys here are the same only when their code points are.
extension YAMLDocument {
    /// Above this many keys, duplicates are found through a dictionary rather than by comparing every pair.
    private static let pairwiseKeyLimit = 12

    // MARK: - Marking keys

    /// Marks the keys among `children[range]` (every other node, from the first) and everything inside them.
    package mutating func markKeys(in range: Range<Int>) {
        for position in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            markInKey(children[position])
        }
    }

    private mutating func markInKey(_ node: YAMLNode) {
        let index = Int(node.index)
        if records[index].kind != .scalar, records[index].isInKey { return }
        records[index].isInKey = true
        guard records[index].kind != .scalar else { return }
        let start = Int(records[index].start)
        for position in start..<(start + Int(records[index].count)) {
            markInKey(children[position])
        }
    }

    /// Marks the keys among `children[range]` (every other node, from the first) and returns true when every key is
    /// an untagged scalar and no two have the same bytes, for at most `pairwiseKeyLimit` keys: nearly every map,
    /// whose keys `markKeys(in:)` and `firstDuplicateKey(in:work:)` then need not visit again. Returns false
    /// otherwise, having marked some scalar keys or none (marking is idempotent): the caller then marks and checks
    /// the keys the general way.
    package mutating func markDistinctPlainKeys(in range: Range<Int>) -> Bool {
        let keyCount = range.count / 2
        guard keyCount <= Self.pairwiseKeyLimit else { return false }
        return children.withUnsafeBufferPointer { children in
            scalarBytes.withUnsafeBufferPointer { bytes in
                records.withUnsafeMutableBufferPointer { records in
                    for position in 0..<keyCount {
                        let index = Int(children[range.lowerBound + position * 2].index)
                        let key = records[index]
                        guard case .scalar = key.kind, key.tag == -1 else { return false }
                        records[index].isInKey = true
                        for earlier in 0..<position {
                            let other = records[Int(children[range.lowerBound + earlier * 2].index)]
                            guard other.count == key.count else { continue }
                            if other.start == key.start
                                || memcmp(
                                    bytes.baseAddress! + Int(other.start), bytes.baseAddress! + Int(key.start),
                                    Int(key.count)) == 0
                            {
                                return false
                            }
                        }
                    }
                    return true
                }
            }
        }
    }

    // MARK: - Duplicates

    /// Keys that cannot be compared within the budget: aliases nest a list or map key deeper than
    /// `LoadBudget.maximumNesting`, or make keys so large that comparing them would take more than `work` steps
    /// (two keys built by doubling an alias sixty times over are 2^60 nodes apart).
    package struct KeyComparisonLimit: Error {
        /// The key being compared when the budget ran out.
        package let key: YAMLNode
    }

    /// The duplicated key Yams would report among the keys of `children[range]`, at its first occurrence; `nil`
    /// when every key is distinct. Comparing lists and maps spends `work` (one a node).
    package func firstDuplicateKey(in range: Range<Int>, work: inout Int) throws(KeyComparisonLimit) -> YAMLNode? {
        let lower = range.lowerBound
        let keyCount = range.count / 2
        var duplicated: [YAMLNode] = []
        if keyCount <= Self.pairwiseKeyLimit {
            for position in 0..<keyCount {
                let key = children[lower + position * 2]
                for earlier in 0..<position where try isEqualKey(children[lower + earlier * 2], key, work: &work) {
                    let first = children[lower + earlier * 2]
                    if !duplicated.contains(first) { duplicated.append(first) }
                    break
                }
            }
        } else {
            var firstByText: [ScalarKey: YAMLNode] = [:]
            var collections: [YAMLNode] = []
            for position in 0..<keyCount {
                let key = children[lower + position * 2]
                if let scalarKey = scalarKey(key) {
                    if let first = firstByText[scalarKey] {
                        if !duplicated.contains(first) { duplicated.append(first) }
                    } else {
                        firstByText[scalarKey] = key
                    }
                } else if let first = try firstEqualKey(to: key, in: collections, work: &work) {
                    if !duplicated.contains(first) { duplicated.append(first) }
                } else {
                    collections.append(key)
                }
            }
        }
        guard var best = duplicated.first else { return nil }
        for candidate in duplicated.dropFirst() where try keyPrecedes(candidate, best, work: &work) {
            best = candidate
        }
        return best
    }

    private func firstEqualKey(
        to key: YAMLNode, in keys: [YAMLNode], work: inout Int
    ) throws(KeyComparisonLimit) -> YAMLNode? {
        for candidate in keys where try isEqualKey(candidate, key, work: &work) { return candidate }
        return nil
    }

    /// A scalar key's identity: its text's code points and resolved tag.
    private struct ScalarKey: Hashable {
        package let tag: Int
        package let text: CodePointKey
    }

    private func scalarKey(_ node: YAMLNode) -> ScalarKey? {
        let record = records[Int(node.index)]
        guard record.kind == .scalar else { return nil }
        return ScalarKey(tag: resolvedTag(node), text: CodePointKey(text(of: record)))
    }

    /// The tag Yams resolves a node to, as an index into `tagNames`; -1 for the default tag of the node's kind
    /// (`str`, `seq` or `map`), which is what an untagged node or one tagged `!` resolves to.
    private func resolvedTag(_ node: YAMLNode) -> Int {
        guard let index = tagIndex(of: node) else { return -1 }
        let name = tagNames[index]
        let defaultName =
            switch records[Int(node.index)].kind {
            case .scalar: Self.strTag
            case .sequence: "tag:yaml.org,2002:seq"
            case .mapping: "tag:yaml.org,2002:map"
            }
        return name == Self.nonSpecificTag || name == defaultName ? -1 : index
    }

    /// True when two scalars have the same text, code point for code point (`é` written as one scalar and as `e`
    /// and a combining accent are different texts, as JSON member names are).
    private func isSameText(_ left: Record, _ right: Record) -> Bool {
        guard left.count == right.count else { return false }
        if left.start == right.start { return true }
        return scalarBytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return true }
            return memcmp(base + Int(left.start), base + Int(right.start), Int(left.count)) == 0
        }
    }

    /// Yams' `Node` equality: same kind and resolved tag, and the same text or the same children.
    package func isEqualKey(
        _ lhs: YAMLNode, _ rhs: YAMLNode, work: inout Int, depth: Int = 1
    ) throws(KeyComparisonLimit) -> Bool {
        if lhs == rhs { return true }
        let (left, right) = (records[Int(lhs.index)], records[Int(rhs.index)])
        // Two untagged scalars (nearly every key): their resolved tags are the same, so the text decides.
        if left.kind == .scalar, right.kind == .scalar, left.tag == -1, right.tag == -1 {
            return isSameText(left, right)
        }
        guard left.kind == right.kind, resolvedTag(lhs) == resolvedTag(rhs) else { return false }
        if left.kind == .scalar { return isSameText(left, right) }
        guard left.count == right.count else { return false }
        try spend(&work, depth: depth, at: lhs)
        for offset in 0..<Int(left.count)
        where
            !(try isEqualKey(
                children[Int(left.start) + offset], children[Int(right.start) + offset], work: &work, depth: depth + 1))
        {
            return false
        }
        return true
    }

    /// Yams' `Node` ordering: scalars by text (in code-point order), lists by their items and maps by their keys,
    /// lexicographically; nodes of different kinds are unordered.
    package func keyPrecedes(
        _ lhs: YAMLNode, _ rhs: YAMLNode, work: inout Int, depth: Int = 1
    ) throws(KeyComparisonLimit) -> Bool {
        let (left, right) = (records[Int(lhs.index)], records[Int(rhs.index)])
        guard left.kind == right.kind else { return false }
        if left.kind == .scalar {
            return withBytes(of: left) { a in withBytes(of: right) { b in a.lexicographicallyPrecedes(b) } }
        }
        try spend(&work, depth: depth, at: lhs)
        let step = left.kind == .mapping ? 2 : 1
        let (leftCount, rightCount) = (Int(left.count) / step, Int(right.count) / step)
        for offset in 0..<min(leftCount, rightCount) {
            let a = children[Int(left.start) + offset * step]
            let b = children[Int(right.start) + offset * step]
            if a == b { continue }
            if try keyPrecedes(a, b, work: &work, depth: depth + 1) { return true }
            if try keyPrecedes(b, a, work: &work, depth: depth + 1) { return false }
        }
        return leftCount < rightCount
    }

    /// Takes one step of the comparison budget for a list or map at `depth`.
    private func spend(_ work: inout Int, depth: Int, at node: YAMLNode) throws(KeyComparisonLimit) {
        work -= 1
        guard work >= 0, depth <= LoadBudget.maximumNesting else { throw KeyComparisonLimit(key: node) }
    }
}

/// Evaluates a parsed ``JSONPath`` against one document. One evaluator serves one `query` call.
final class JSONPathEvaluator {
    struct Node<Location: NodeLocation> {
        var value: JSONValue
        var location: Location
    }

    let root: JSONValue
    /// Patterns of `match`/`search` that come from the document, compiled once per query, by their code points
    /// (a `[String: …]` key would match `e\u{301}` with the pattern compiled for `\u{E9}`).
    var dynamicPatterns: [CodePointKey: IRegexp] = [:]

    init(root: JSONValue) {
        self.root = root
    }

    // MARK: - Segments

    /// The nodes `segments` select, starting from `value` at `location`.
    func select<Location: NodeLocation>(
        _ segments: [JSONPath.Segment], from value: JSONValue, at location: Location
    ) -> [Node<Location>] {
        var nodes = [Node(value: value, location: location)]
        for segment in segments {
            var next: [Node<Location>] = []
            for node in nodes {
                if segment.isDescendant {
                    selectDescending(segment.selectors, from: node, into: &next)
                } else {
                    select(segment.selectors, from: node, into: &next)
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// Applies `selectors` to `node` and to each of its descendants, parents before children, in document order.
    /// Iterative, so deep documents cannot exhaust the stack.
    private func selectDescending<Location: NodeLocation>(
        _ selectors: [JSONPath.Selector], from node: Node<Location>, into output: inout [Node<Location>]
    ) {
        var pending = [node]
        while let current = pending.popLast() {
            select(selectors, from: current, into: &output)
            switch current.value {
            case .array(let elements):
                for index in elements.indices.reversed() {
                    pending.append(Node(value: elements[index], location: current.location.appending(index: index)))
                }
            case .object(let object):
                for member in object.members.reversed() {
                    pending.append(Node(value: member.value, location: current.location.appending(name: member.key)))
                }
            default:
                break
            }
        }
    }

    // MARK: - Selectors

    private func select<Location: NodeLocation>(
        _ selectors: [JSONPath.Selector], from node: Node<Location>, into output: inout [Node<Location>]
    ) {
        for selector in selectors {
            switch selector {
            case .name(let name):
                if case .object(let object) = node.value, let value = object[name] {
                    output.append(Node(value: value, location: node.location.appending(name: name)))
                }
            case .wildcard:
                switch node.value {
                case .array(let elements):
                    for (index, element) in elements.enumerated() {
                        output.append(Node(value: element, location: node.location.appending(index: index)))
                    }
                case .object(let object):
                    for member in object.members {
                        output.append(Node(value: member.value, location: node.location.appending(name: member.key)))
                    }
                default:
                    break
                }
            case .index(let index):
                if case .array(let elements) = node.value {
                    let normalized = index < 0 ? elements.count + index : index
                    if normalized >= 0 && normalized < elements.count {
                        output.append(
                            Node(
                                value: elements[normalized],
                                location: node.location.appending(index: normalized)))
                    }
                }
            case .slice(let start, let end, let step):
                if case .array(let elements) = node.value {
                    for index in Self.sliceIndices(count: elements.count, start: start, end: end, step: step) {
                        output.append(Node(value: elements[index], location: node.location.appending(index: index)))
                    }
                }
            case .filter(let expression):
                switch node.value {
                case .array(let elements):
                    for (index, element) in elements.enumerated() where test(expression, current: element) {
                        output.append(Node(value: element, location: node.location.appending(index: index)))
                    }
                case .object(let object):
                    for member in object.members where test(expression, current: member.value) {
                        output.append(Node(value: member.value, location: node.location.appending(name: member.key)))
                    }
                default:
                    break
                }
            }
        }
    }

    /// The indexes an array slice selects (RFC 9535 §2.3.4.2.2), in selection order.
    static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var indices: [Int] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            var index = lower
            while index < upper {
                indices.append(index)
                index += step
            }
        } else {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(normalize(end ?? -count - 1), -1), count - 1)
            var index = upper
            while lower < index {
                indices.append(index)
                index += step
            }
        }
        return indices
    }
}

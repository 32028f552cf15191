// MARK: - JSONPath on a tape

extension JSONTape {
    /// The values of the nodes `path` selects, as ``JSONPath/query(_:)`` gives them for ``root``, building only
    /// the selected values (and, for a filter, each candidate it tests, one at a time).
    package func query(_ path: JSONPath) -> [JSONValue] {
        guard count > 0 else { return [] }
        // A singular query (`$.name`, `$.items[0].id`: most checks) reads only the nodes it names: no lists of
        // nodes per segment, no evaluator.
        if path.isSingular {
            return singularValue(path).map { [$0] } ?? []
        }
        // Filters that look at the document's root (`$` inside a filter) need the whole document as a value.
        if path.root.segments.contains(where: { $0.selectors.contains(where: Self.filterUsesRoot) }) {
            return path.query(root)
        }
        let evaluator = JSONPathEvaluator(root: .null)
        var nodes = [0]
        for segment in path.root.segments {
            var next: [Int] = []
            for node in nodes {
                if segment.isDescendant {
                    selectDescending(segment.selectors, from: node, evaluator: evaluator, into: &next)
                } else {
                    select(segment.selectors, from: node, evaluator: evaluator, into: &next)
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes.map(value)
    }

    /// The value of the one node a singular `path` selects (`$.name`, `$.items[0].id`), or nil when it selects
    /// none: ``query(_:)``'s first value, without the list. Only for a path whose `isSingular` holds.
    package func singularValue(_ path: JSONPath) -> JSONValue? {
        // No closure over the tape (`.map(value)` copied it).
        guard count > 0, let node = singular(path.root, at: 0) else { return nil }
        return value(node)
    }

    /// Applies `selectors` to `node` and to each of its descendants, parents before children, in document order,
    /// keeping one cursor per open container (never a list of a large container's children).
    private func selectDescending(
        _ selectors: [JSONPath.Selector], from node: Int, evaluator: JSONPathEvaluator, into output: inout [Int]
    ) {
        select(selectors, from: node, evaluator: evaluator, into: &output)
        var open: [(next: Int, end: Int, isObject: Bool)] = []
        func enter(_ container: Int) {
            let kind = kind(container)
            if kind == .array || kind == .object { open.append((container + 1, end(container), kind == .object)) }
        }
        enter(node)
        while let top = open.last {
            guard top.next < top.end else {
                open.removeLast()
                continue
            }
            let child = top.isObject ? top.next + 1 : top.next // an object's entries are key, value
            open[open.count - 1].next = end(child)
            select(selectors, from: child, evaluator: evaluator, into: &output)
            enter(child)
        }
    }

    private func select(
        _ selectors: [JSONPath.Selector], from node: Int, evaluator: JSONPathEvaluator, into output: inout [Int]
    ) {
        let kind = kind(node)
        guard kind == .array || kind == .object else { return }
        for selector in selectors {
            switch selector {
            case .name(let name):
                guard kind == .object else { continue }
                if let found = member(named: name, of: node) { output.append(found) }
            case .wildcard:
                output.append(contentsOf: children(node))
            case .index(let index):
                guard kind == .array else { continue }
                if let child = element(at: index, of: node) { output.append(child) }
            case .slice(let start, let end, let step):
                guard kind == .array else { continue }
                let positions = JSONPathEvaluator.sliceIndices(
                    count: childCount(node), start: start, end: end, step: step)
                if (step ?? 1) > 0 {
                    // Increasing positions: one walk.
                    var next = 0
                    var position = 0
                    forEachChild(node) { _, child in
                        guard next < positions.count else { return false }
                        if positions[next] == position {
                            output.append(child)
                            next += 1
                        }
                        position += 1
                        return true
                    }
                } else {
                    let elements = children(node)
                    for position in positions { output.append(elements[position]) }
                }
            case .filter(let expression):
                forEachChild(node) { _, child in
                    if test(expression, at: child, evaluator: evaluator) { output.append(child) }
                    return true
                }
            }
        }
    }

    // MARK: - Filters

    /// Whether `expression` holds for the candidate at `node`. Comparisons and existence tests of literals and
    /// singular relative queries (`@.id == 3`, `@.tags[0]`) read only the nodes they name; anything else is
    /// evaluated on the candidate built as a value.
    private func test(_ expression: JSONPath.FilterExpression, at node: Int, evaluator: JSONPathEvaluator) -> Bool {
        switch expression {
        case .or(let terms):
            return terms.contains { test($0, at: node, evaluator: evaluator) }
        case .and(let terms):
            return terms.allSatisfy { test($0, at: node, evaluator: evaluator) }
        case .not(let inner):
            return !test(inner, at: node, evaluator: evaluator)
        case .comparison(let left, let op, let right):
            if let left = operand(left, at: node), let right = operand(right, at: node) {
                return JSONPathEvaluator.compare(left, op, right)
            }
        case .exists(let query) where query.isRelative && query.isSingular:
            return singular(query, at: node) != nil
        default:
            break
        }
        return evaluator.test(expression, current: value(node))
    }

    /// A comparison operand read from the tape: `.some(nil)` is Nothing; nil when it needs the general evaluator.
    private func operand(_ comparable: JSONPath.Comparable, at node: Int) -> JSONValue?? {
        switch comparable {
        case .literal(let literal): return .some(literal)
        case .query(let query) where query.isRelative && query.isSingular:
            return .some(singular(query, at: node).map(value))
        default: return nil
        }
    }

    /// The element at `index` of the array at `node` (negative from the end). Walks the elements (twice for a
    /// negative index): no list of a large array's elements.
    private func element(at index: Int, of node: Int) -> Int? {
        let normalized = index >= 0 ? index : childCount(node) + index
        return normalized >= 0 ? element(normalized, of: node) : nil
    }

    /// The tape index a singular relative query selects from `node`, or nil (Nothing).
    private func singular(_ query: JSONPath.Query, at node: Int) -> Int? {
        var current = node
        for segment in query.segments {
            switch segment.selectors.first {
            case .name(let name)?:
                guard kind(current) == .object, let found = member(named: name, of: current) else { return nil }
                current = found
            case .index(let index)?:
                guard kind(current) == .array, let child = element(at: index, of: current) else { return nil }
                current = child
            default:
                return nil
            }
        }
        return current
    }

    /// The number of elements or members.
    private func childCount(_ node: Int) -> Int {
        var count = 0
        forEachChild(node) { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// The tape index of the element at `position`, if there is one.
    private func element(_ position: Int, of node: Int) -> Int? {
        var found: Int?
        var current = 0
        forEachChild(node) { _, child in
            if current == position {
                found = child
                return false
            }
            current += 1
            return true
        }
        return found
    }

    // MARK: - Absolute queries in filters

    private static func filterUsesRoot(_ selector: JSONPath.Selector) -> Bool {
        guard case .filter(let expression) = selector else { return false }
        return usesRoot(expression)
    }

    private static func usesRoot(_ expression: JSONPath.FilterExpression) -> Bool {
        switch expression {
        case .or(let terms), .and(let terms): return terms.contains(where: usesRoot)
        case .not(let inner): return usesRoot(inner)
        case .comparison(let left, _, let right): return usesRoot(left) || usesRoot(right)
        case .exists(let query): return usesRoot(query)
        case .function(let call): return usesRoot(call)
        }
    }

    private static func usesRoot(_ comparable: JSONPath.Comparable) -> Bool {
        switch comparable {
        case .literal: return false
        case .query(let query): return usesRoot(query)
        case .function(let call): return usesRoot(call)
        }
    }

    private static func usesRoot(_ call: JSONPath.FunctionCall) -> Bool {
        call.arguments.contains { argument in
            switch argument {
            case .literal: return false
            case .query(let query): return usesRoot(query)
            case .logical(let expression): return usesRoot(expression)
            case .function(let inner): return usesRoot(inner)
            }
        }
    }

    private static func usesRoot(_ query: JSONPath.Query) -> Bool {
        !query.isRelative || query.segments.contains { $0.selectors.contains(where: filterUsesRoot) }
    }
}

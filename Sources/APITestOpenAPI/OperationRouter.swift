import APITestJSON

/// Finds the operation for a method and a path: a trie of path segments, so a lookup costs the segments of the path
/// (and the few templated branches beside them), not the number of operations.
///
/// Precedence: a path that matches without templated segments wins (OpenAPI's rule for concrete paths), then the
/// match with the fewest templated segments, then the one whose earlier segments are literal. Segments compare by
/// code points (`café` written with a combining accent is another path than with `é`). A trailing slash
/// matches the template without it (and the reverse) only when nothing matches the path as it is.
struct OperationRouter: Sendable {
    /// A node of the trie: the children by the next segment, and the operations that end here by method.
    private struct Node: Sendable {
        var literals: [CodePointKey: Int] = [:]
        var mixed: [(parts: [PathTemplate.Part], child: Int)] = []
        var parameter: Int?
        var operations: [String: Int] = [:]
    }

    private var nodes: [Node] = [Node()]

    /// An empty router.
    init() {}

    /// Adds operation `index` for `method` (upper case) on `template`; a second operation with the same method and
    /// the same template shape replaces nothing (the loader reports the clash).
    mutating func add(_ template: PathTemplate, method: String, index: Int) {
        var current = 0
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                if let child = nodes[current].literals[CodePointKey(text)] {
                    current = child
                } else {
                    let child = newNode()
                    nodes[current].literals[CodePointKey(text)] = child
                    current = child
                }
            case .parameter:
                if let child = nodes[current].parameter {
                    current = child
                } else {
                    let child = newNode()
                    nodes[current].parameter = child
                    current = child
                }
            case .mixed(let parts):
                if let existing = nodes[current].mixed.first(where: { $0.parts == parts }) {
                    current = existing.child
                } else {
                    let child = newNode()
                    nodes[current].mixed.append((parts, child))
                    current = child
                }
            }
        }
        if nodes[current].operations[method] == nil { nodes[current].operations[method] = index }
    }

    private mutating func newNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The operation for `method` on the decoded `segments` (the path after the server prefix: `/` is `[""]`).
    func lookup(method: String, segments: [Substring]) -> Int? {
        if let found = search(method: method, segments: segments) { return found }
        var toggled = segments
        if segments.count > 1, segments.last?.isEmpty == true {
            toggled.removeLast()
        } else if segments != [""] {
            toggled.append("")
        } else {
            return nil
        }
        return search(method: method, segments: toggled)
    }

    private func search(method: String, segments: [Substring]) -> Int? {
        var best: (score: Int, index: Int)?
        search(node: 0, depth: 0, score: 0, method: method, segments: segments, best: &best)
        return best?.index
    }

    private func search(
        node: Int, depth: Int, score: Int, method: String, segments: [Substring], best: inout (score: Int, index: Int)?
    ) {
        if let found = best, score >= found.score { return }
        let current = nodes[node]
        guard depth < segments.count else {
            if let index = current.operations[method] { best = (score, index) }
            return
        }
        let segment = segments[depth]
        if let child = current.literals[CodePointKey(String(segment))] {
            search(node: child, depth: depth + 1, score: score, method: method, segments: segments, best: &best)
        }
        for (parts, child) in current.mixed where PathTemplate.match(parts, segment) != nil {
            search(node: child, depth: depth + 1, score: score + 1, method: method, segments: segments, best: &best)
        }
        if let child = current.parameter, !segment.isEmpty {
            search(node: child, depth: depth + 1, score: score + 1, method: method, segments: segments, best: &best)
        }
    }
}

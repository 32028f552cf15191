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
    ///
    /// A segment is looked up among a node's literal children by comparing its bytes with each (nodes have few
    /// children); past ``hashedLiterals`` children, by a hash of its code points. The operations are compared
    /// method by method (a path has a few).
    private struct Node: Sendable {
        var literals: [(text: String, child: Int)] = []
        var hashed: [CodePointKey: Int]?
        var mixed: [(parts: [PathTemplate.Part], child: Int)] = []
        var parameter: Int?
        var operations: [(method: String, index: Int)] = []

        /// The child for the literal segment `segment`.
        func literal(_ segment: Substring) -> Int? {
            if let hashed { return hashed[CodePointKey(String(segment))] }
            for literal in literals where OperationRouter.sameBytes(literal.text, segment) { return literal.child }
            return nil
        }

        /// The operation for `method` ending here.
        func operation(_ method: String) -> Int? {
            for operation in operations where operation.method == method { return operation.index }
            return nil
        }
    }

    /// How many literal children a node compares one by one before it hashes them.
    static var hashedLiterals: Int { 8 }

    /// Whether two texts have the same UTF-8 bytes (the same code points).
    static func sameBytes(_ text: String, _ segment: Substring) -> Bool {
        let found = segment.utf8.withContiguousStorageIfAvailable { segmentBytes in
            text.utf8.withContiguousStorageIfAvailable { textBytes in
                textBytes.count == segmentBytes.count
                    && !textBytes.indices.contains { textBytes[$0] != segmentBytes[$0] }
            }
        }
        return (found ?? nil) ?? text.utf8.elementsEqual(segment.utf8)
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
                if let child = nodes[current].literal(Substring(text)) {
                    current = child
                } else {
                    let child = newNode()
                    nodes[current].literals.append((text, child))
                    if nodes[current].literals.count > Self.hashedLiterals {
                        nodes[current].hashed = Dictionary(
                            nodes[current].literals.map { (CodePointKey($0.text), $0.child) },
                            uniquingKeysWith: { first, _ in first })
                    }
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
        if nodes[current].operation(method) == nil { nodes[current].operations.append((method, index)) }
    }

    private mutating func newNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The operation for `method` on the decoded `segments` (the path after the server prefix: `/` is `[""]`).
    func lookup(method: String, segments: ArraySlice<Substring>) -> Int? {
        if let found = search(method: method, segments: segments) { return found }
        var toggled = Array(segments)
        if segments.count > 1, segments.last?.isEmpty == true {
            toggled.removeLast()
        } else if !(segments.count == 1 && segments.first?.isEmpty == true) {
            toggled.append("")
        } else {
            return nil
        }
        return search(method: method, segments: toggled[...])
    }

    private func search(method: String, segments: ArraySlice<Substring>) -> Int? {
        var best: (score: Int, index: Int)?
        search(node: 0, depth: segments.startIndex, score: 0, method: method, segments: segments, best: &best)
        return best?.index
    }

    private func search(
        node: Int, depth: Int, score: Int, method: String, segments: ArraySlice<Substring>,
        best: inout (score: Int, index: Int)?
    ) {
        if let found = best, score >= found.score { return }
        guard depth < segments.endIndex else {
            if let index = nodes[node].operation(method) { best = (score, index) }
            return
        }
        let segment = segments[depth]
        if let child = nodes[node].literal(segment) {
            search(node: child, depth: depth + 1, score: score, method: method, segments: segments, best: &best)
        }
        for (parts, child) in nodes[node].mixed where PathTemplate.match(parts, segment) != nil {
            search(node: child, depth: depth + 1, score: score + 1, method: method, segments: segments, best: &best)
        }
        if let child = nodes[node].parameter, !segment.isEmpty {
            search(node: child, depth: depth + 1, score: score + 1, method: method, segments: segments, best: &best)
        }
    }
}

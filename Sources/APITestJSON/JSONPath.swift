/// A compiled RFC 9535 JSONPath query.
///
/// Parse once with ``init(_:)`` (syntax and well-typedness are checked there, and literal `match`/`search`
/// patterns are compiled there), then evaluate as often as needed with ``query(_:)`` or ``queryLocated(_:)``.
///
/// ```swift
/// let path = try JSONPath("$.users[?@.role == 'admin'].name")
/// let names = path.query(document)
/// ```
///
/// Two paths are equal when they parse to the same query (`$.a` equals `$['a']`); ``description`` is the
/// expression as written.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    package let expression: String
    let root: Query

    /// Parses and type-checks `expression`.
    package init(_ expression: String) throws(JSONPathError) {
        var parser = JSONPathParser(expression)
        self.expression = expression
        self.root = try parser.parseExpression()
    }

    /// The values of the nodes the query selects, in RFC 9535 order (objects in member order).
    package func query(_ root: JSONValue) -> [JSONValue] {
        JSONPathEvaluator(root: root).select(self.root.segments, from: root, at: NoLocation())
            .map(\.value)
    }

    /// The selected nodes with their normalized paths (RFC 9535 §2.7), such as `$['a'][0]`.
    package func queryLocated(_ root: JSONValue) -> [(path: String, value: JSONValue)] {
        JSONPathEvaluator(root: root).select(self.root.segments, from: root, at: LinkedLocation())
            .map { (path: $0.location.normalizedPath, value: $0.value) }
    }

    /// Whether the query can select at most one node: only name and index selectors, one per child segment.
    ///
    /// This looks at what the query selects, so `$[ 'a' ]` is singular here although RFC 9535's grammar for the
    /// singular queries a filter may compare (§2.3.5.1) does not allow blanks inside its brackets.
    package var isSingular: Bool {
        root.isSingular
    }

    /// The expression as written.
    package var description: String {
        expression
    }

    /// Whether both expressions parse to the same query.
    package static func == (lhs: JSONPath, rhs: JSONPath) -> Bool {
        lhs.root == rhs.root
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(root)
    }
}

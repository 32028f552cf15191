import APITestJSON

/// What a node of a document is, as ``SchemaEvaluator`` sees it: a scalar with its value, or a container.
enum SchemaShape {
    /// `null`, a boolean, a number or a string, decoded.
    case scalar(JSONValue)
    case array
    case object
}

/// A JSON document as ``SchemaEvaluator`` reads it: a ``JSONValue`` tree, or a ``JSONTape`` whose nodes are
/// entry indexes, so that a large body is validated without building a tree of values.
///
/// Containers are only walked, never listed: no keyword makes an array of a large container's children.
protocol SchemaDocument {
    /// A value of the document.
    associatedtype Node

    /// What `node` is; a scalar is decoded here (once per schema node the evaluator applies to it).
    func shape(of node: Node) -> SchemaShape
    /// The number of elements of an array node.
    func elementCount(of node: Node) -> Int
    /// Calls `body` with each element of an array node, in order, until it returns false.
    func forEachElement(of node: Node, _ body: (Node) -> Bool)
    /// The number of members of an object node (a repeated name counts once).
    func memberCount(of node: Node) -> Int
    /// Calls `body` with (name, the name as a string node, value) for each member of an object node, in order,
    /// until it returns false; a repeated name comes once, with its last value (as ``JSONObject`` keeps it).
    func forEachMember(of node: Node, _ body: (_ name: String, _ nameNode: Node, _ value: Node) -> Bool)
    /// The value of the member `name` of an object node.
    func member(_ name: String, of node: Node) -> Node?
    /// A number naming `node` in its document (a tape's entry index), so that results can be kept per value; nil
    /// when nodes have no identity (a value tree).
    func identity(of node: Node) -> Int?
}

// MARK: - A value tree

/// A ``JSONValue`` tree as a schema document: its nodes are the values.
struct JSONValueDocument: SchemaDocument {
    func shape(of node: JSONValue) -> SchemaShape {
        switch node {
        case .array: .array
        case .object: .object
        default: .scalar(node)
        }
    }

    func elementCount(of node: JSONValue) -> Int {
        node.arrayValue?.count ?? 0
    }

    func forEachElement(of node: JSONValue, _ body: (JSONValue) -> Bool) {
        guard case .array(let items) = node else { return }
        for item in items where !body(item) { return }
    }

    func memberCount(of node: JSONValue) -> Int {
        node.objectValue?.count ?? 0
    }

    func forEachMember(of node: JSONValue, _ body: (String, JSONValue, JSONValue) -> Bool) {
        guard case .object(let object) = node else { return }
        for (name, value) in object where !body(name, .string(name), value) { return }
    }

    func member(_ name: String, of node: JSONValue) -> JSONValue? {
        node.objectValue?[name]
    }

    func identity(of node: JSONValue) -> Int? { nil }
}

// MARK: - A tape

/// A ``JSONTape`` as a schema document: its nodes are entry indexes, and a member's name node is its key entry.
extension JSONTape: SchemaDocument {
    func identity(of node: Int) -> Int? { node }

    func shape(of node: Int) -> SchemaShape {
        switch kind(node) {
        case .array: .array
        case .object: .object
        default: .scalar(value(node))
        }
    }

    func elementCount(of node: Int) -> Int {
        elementCount(node)
    }

    func forEachElement(of node: Int, _ body: (Int) -> Bool) {
        forEachElement(node, body)
    }

    func memberCount(of node: Int) -> Int {
        memberCount(node)
    }

    func forEachMember(of node: Int, _ body: (String, Int, Int) -> Bool) {
        forEachMember(node, body)
    }

    func member(_ name: String, of node: Int) -> Int? {
        member(named: name, of: node)
    }
}

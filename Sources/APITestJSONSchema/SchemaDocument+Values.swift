import APITestJSON

// MARK: - Equality

extension SchemaDocument {
    /// JSON Schema equality of a node and a value: numbers by value (`1 == 1.0`), strings by code points (no
    /// Unicode normalization), objects regardless of member order.
    func isEqual(_ node: Node, to value: JSONValue) -> Bool {
        switch (shape(of: node), value) {
        case (.scalar(let scalar), _):
            return scalar.isSchemaEqual(to: value)
        case (.array, .array(let items)):
            guard elementCount(of: node) == items.count else { return false }
            var position = 0
            var equal = true
            forEachElement(of: node) { element in
                equal = isEqual(element, to: items[position])
                position += 1
                return equal
            }
            return equal
        case (.object, .object(let object)):
            guard memberCount(of: node) == object.count else { return false }
            var equal = true
            forEachMember(of: node) { name, _, member in
                guard let match = object.members.first(where: { Self.sameName($0.key, name) }) else {
                    equal = false
                    return false
                }
                equal = isEqual(member, to: match.value)
                return equal
            }
            return equal
        default:
            return false
        }
    }

    /// JSON Schema equality of two nodes of this document (see ``isEqual(_:to:)``).
    func isEqual(_ lhs: Node, _ rhs: Node) -> Bool {
        switch (shape(of: lhs), shape(of: rhs)) {
        case (.scalar(let left), .scalar(let right)):
            return left.isSchemaEqual(to: right)
        case (.array, .array):
            guard elementCount(of: lhs) == elementCount(of: rhs) else { return false }
            // The right array's element nodes (an index each on a tape), so both are walked once.
            var rightNodes: [Node] = []
            forEachElement(of: rhs) { node in
                rightNodes.append(node)
                return true
            }
            var position = 0
            var equal = true
            forEachElement(of: lhs) { element in
                equal = isEqual(element, rightNodes[position])
                position += 1
                return equal
            }
            return equal
        case (.object, .object):
            guard memberCount(of: lhs) == memberCount(of: rhs) else { return false }
            var equal = true
            forEachMember(of: lhs) { name, _, value in
                guard let match = member(name, of: rhs) else {
                    equal = false
                    return false
                }
                equal = isEqual(value, match)
                return equal
            }
            return equal
        default:
            return false
        }
    }

    /// A hash that equal nodes share (``isEqual(_:_:)``): numbers by exact decimal value, strings and names by
    /// code points, objects regardless of member order.
    func schemaHash(_ node: Node, into hasher: inout Hasher) {
        switch shape(of: node) {
        case .scalar(let scalar):
            switch scalar {
            case .string(let string):
                hasher.combine(1)
                for scalar in string.unicodeScalars { hasher.combine(scalar.value) }
            case .integer, .double, .number:
                hasher.combine(2)
                hasher.combine(scalar.numberValue)
            default:
                hasher.combine(scalar)
            }
        case .array:
            hasher.combine(3)
            forEachElement(of: node) { element in
                schemaHash(element, into: &hasher)
                return true
            }
        case .object:
            var sum = 0
            forEachMember(of: node) { name, _, member in
                var memberHasher = Hasher()
                for scalar in name.unicodeScalars { memberHasher.combine(scalar.value) }
                schemaHash(member, into: &memberHasher)
                sum &+= memberHasher.finalize()
                return true
            }
            hasher.combine(4)
            hasher.combine(sum)
        }
    }

    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.unicodeScalars.elementsEqual(rhs.unicodeScalars)
    }
}

// MARK: - Types

extension SchemaDocument {
    /// Whether a node of `shape` is of the JSON Schema type `name`; an integer-valued float is an integer.
    static func matches(_ shape: SchemaShape, type name: String) -> Bool {
        switch shape {
        case .scalar(let scalar): scalar.matchesSchemaType(name)
        case .array: name == "array"
        case .object: name == "object"
        }
    }

    /// The JSON Schema type of a node of `shape`, for messages.
    static func typeName(_ shape: SchemaShape) -> String {
        switch shape {
        case .scalar(let scalar): scalar.schemaTypeName
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Describing nodes

extension SchemaDocument {
    /// A short rendering for messages: JSON, cut after 60 characters. Writes no more of a large container than
    /// it shows.
    func shortDescription(_ node: Node) -> String {
        var text = ""
        let complete = write(node, into: &text, budget: Self.descriptionBudget)
        guard !complete || text.count > 60 else { return text }
        return String(text.prefix(57)) + "..."
    }

    /// Bytes of JSON written before a description stops (more than 60 characters can need).
    private static var descriptionBudget: Int { 256 }

    /// Writes `node` as compact JSON until `text` holds `budget` bytes; false when it stopped early.
    private func write(_ node: Node, into text: inout String, budget: Int) -> Bool {
        switch shape(of: node) {
        case .scalar(let scalar):
            text += JSONWriter.string(scalar)
        case .array:
            text += "["
            var first = true
            forEachElement(of: node) { element in
                if !first { text += "," }
                first = false
                return write(element, into: &text, budget: budget)
            }
            guard text.utf8.count < budget else { return false }
            text += "]"
        case .object:
            text += "{"
            var first = true
            forEachMember(of: node) { name, _, member in
                if !first { text += "," }
                first = false
                text += JSONWriter.quoted(name) + ":"
                return write(member, into: &text, budget: budget)
            }
            guard text.utf8.count < budget else { return false }
            text += "}"
        }
        return text.utf8.count < budget
    }
}

import APITestJSON

// MARK: - Describing values

extension JSONValue {
    /// A short rendering for messages: numbers and strings as JSON, long values cut.
    var shortDescription: String {
        let text = JSONWriter.string(self)
        guard text.count > 60 else { return text }
        return String(text.prefix(57)) + "..."
    }
}

// MARK: - Equality and types

extension JSONValue {
    /// JSON Schema equality: numbers by value (`1 == 1.0`), strings by code points (no Unicode
    /// normalization, unlike `String.==`), objects regardless of member order.
    func isSchemaEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSchemaEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let match = b.members.first(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }),
                    value.isSchemaEqual(to: match.value)
                else { return false }
            }
            return true
        default:
            return self == other
        }
    }
}

extension JSONValue {
    /// Whether the value is of the JSON Schema type `name`; an integer-valued float is an integer.
    func matchesSchemaType(_ name: String) -> Bool {
        switch (name, self) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("number", .integer), ("number", .double), ("number", .number), ("integer", .integer):
            return true
        case ("integer", .number(let number)):
            return number.isInteger
        case ("integer", .double(let double)):
            return double.isFinite && double.rounded() == double
        default:
            return false
        }
    }

    /// The JSON Schema type of the value, for messages.
    var schemaTypeName: String {
        switch self {
        case .double(let double): return double.isFinite && double.rounded() == double ? "integer" : "number"
        default: return typeName
        }
    }
}

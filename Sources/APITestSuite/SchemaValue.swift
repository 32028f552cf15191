import APITestJSON

/// A JSON value with its object members in order: a fragment of the editor schema (`SuiteSchema`), written with
/// literals (`["type": "boolean"]`) and printed as `schemas/apitest.schema.json` is committed.
package indirect enum SchemaValue: Sendable, Equatable {
    /// An object's members, in order.
    case object([Member])
    case array([SchemaValue])
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null

    /// One member of an object.
    package struct Member: Sendable, Equatable {
        /// The member's name.
        package var name: String
        /// The member's value.
        package var value: SchemaValue

        /// A member `name: value`.
        package init(_ name: String, _ value: SchemaValue) {
            self.name = name
            self.value = value
        }
    }

    // MARK: - Building

    /// `{"$ref": "#/$defs/NAME"}`.
    package static func ref(_ name: String) -> SchemaValue {
        ["$ref": .string("#/$defs/" + name)]
    }

    /// `schema` with a `description` member first.
    package static func described(_ description: String, _ schema: SchemaValue = [:]) -> SchemaValue {
        SchemaValue.object([Member("description", .string(description))]).merged(with: schema)
    }

    /// A described reference to a definition: `{"description": ..., "$ref": "#/$defs/NAME"}`.
    package static func described(_ description: String, ref name: String) -> SchemaValue {
        described(description, ref(name))
    }

    /// An array of strings.
    package static func strings(_ names: [String]) -> SchemaValue {
        .array(names.map(SchemaValue.string))
    }

    /// An object of `members`, in order.
    package static func members(_ members: [(String, SchemaValue)]) -> SchemaValue {
        .object(members.map { Member($0.0, $0.1) })
    }

    /// This object with the members of `other` after its own (a member already here takes the new value, in
    /// place); any other value is returned unchanged.
    package func merged(with other: SchemaValue) -> SchemaValue {
        guard case .object(var members) = self, case .object(let more) = other else { return self }
        for member in more {
            if let index = members.firstIndex(where: { $0.name == member.name }) {
                members[index].value = member.value
            } else {
                members.append(member)
            }
        }
        return .object(members)
    }

    /// The value of member `name` of an object.
    package subscript(name: String) -> SchemaValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }
}

// MARK: - Literals

extension SchemaValue: ExpressibleByDictionaryLiteral {
    /// An object, its members in the literal's order.
    package init(dictionaryLiteral elements: (String, SchemaValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}

extension SchemaValue: ExpressibleByArrayLiteral {
    /// An array.
    package init(arrayLiteral elements: SchemaValue...) {
        self = .array(elements)
    }
}

extension SchemaValue: ExpressibleByStringLiteral {
    /// A string.
    package init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension SchemaValue: ExpressibleByIntegerLiteral {
    /// An integer.
    package init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension SchemaValue: ExpressibleByFloatLiteral {
    /// A number with a fraction or an exponent.
    package init(floatLiteral value: Double) {
        self = .number(value)
    }
}

extension SchemaValue: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    package init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension SchemaValue: ExpressibleByNilLiteral {
    /// `null`.
    package init(nilLiteral: ()) {
        self = .null
    }
}

// MARK: - JSON text

extension SchemaValue {
    /// The value as JSON indented by two spaces, as Python's `json.dumps(value, indent=2, ensure_ascii=False)`
    /// writes it (the form the committed schema has always had), with a final line break.
    package var jsonText: String {
        var text = ""
        write(to: &text, indent: "")
        return text + "\n"
    }

    private func write(to text: inout String, indent: String) {
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                text += "{}"
                return
            }
            text += "{\n"
            let inner = indent + "  "
            for (index, member) in members.enumerated() {
                text += inner
                text += JSONWriter.quoted(member.name)
                text += ": "
                member.value.write(to: &text, indent: inner)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        case .array(let items):
            guard !items.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            let inner = indent + "  "
            for (index, item) in items.enumerated() {
                text += inner
                item.write(to: &text, indent: inner)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .string(let string): text += JSONWriter.quoted(string)
        case .integer(let value): text += String(value)
        case .number(let value):
            // Python's repr: an integral double keeps ".0" (1e9 is 1000000000.0).
            text += value == value.rounded() && abs(value) < 1e16 ? String(Int(value)) + ".0" : String(value)
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        }
    }
}

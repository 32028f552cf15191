import APITestJSON
import APITestOpenAPI

// MARK: - Arrays and objects

extension ExampleValueGenerator {
    /// An array of `minItems` elements (at least one, unless `maxItems` is 0 or no element can be built and none is
    /// required): `prefixItems` first, then `items`.
    func array(for facts: SchemaFacts, _ context: Context) throws(GenerationFailure) -> JSONValue {
        let minimum = facts.minItems ?? 0
        let maximum = facts.maxItems ?? Int.max
        guard minimum <= maximum else { throw GenerationFailure(reason: "the schema's minItems is above its maxItems") }
        guard minimum <= 64 else { throw GenerationFailure(reason: "the schema's minItems is over 64") }
        let prefix = facts.prefixItems ?? []
        let closed = facts.items.contains { $0.value == .bool(false) }
        var count = min(max(minimum, 1), maximum)
        if closed { count = min(count, prefix.count) }
        guard count >= minimum else {
            throw GenerationFailure(reason: "the schema's items allow fewer elements than its minItems")
        }
        let nested = try context.nested()
        var elements: [JSONValue] = []
        for index in 0..<count {
            var element = SchemaFacts()
            do {
                if index < prefix.count { element.merge(try self.facts(of: prefix[index], depth: nested.depth)) }
                for schema in facts.items { element.merge(try self.facts(of: schema, depth: nested.depth)) }
                var value = try value(for: element, nested, documentValuesHere: nested.usesDocumentValues)
                if facts.uniqueItems, index > 0 { value = try Self.distinct(value, index: index) }
                elements.append(value)
            } catch {
                // Elements beyond minItems are a courtesy: an empty array is valid when none is required.
                guard index >= minimum else { throw error }
                break
            }
        }
        return .array(elements)
    }

    /// An object with the required properties only (a `readOnly` one is left out: requests do not carry it), and
    /// optional ones added in order while `minProperties` asks for more.
    func object(for facts: SchemaFacts, _ context: Context) throws(GenerationFailure) -> JSONValue {
        let nested = try context.nested()
        var members: [(key: String, value: JSONValue)] = []
        for name in facts.required {
            let schemas = facts.schemas(ofProperty: name)
            if schemas.isEmpty, !facts.additionalPropertiesAllowed,
                !facts.properties.contains(where: { $0.name == name })
            {
                throw GenerationFailure(reason: "the property '\(name)' is required but not allowed")
            }
            guard let value = try propertyValue(schemas, nested) else { continue }
            members.append((name, value))
        }
        let wanted = facts.minProperties ?? 0
        for (name, schemas) in facts.properties where members.count < wanted {
            guard !members.contains(where: { $0.key == name }), let value = try? propertyValue(schemas, nested)
            else { continue }
            members.append((name, value))
        }
        guard members.count >= wanted else {
            throw GenerationFailure(reason: "the schema's minProperties asks for more properties than it declares")
        }
        return .object(JSONObject(members))
    }

    /// The value of a property whose schemas are `schemas` (all must hold; none: any value); nil when the property
    /// is `readOnly`.
    private func propertyValue(_ schemas: [DescribedSchema], _ context: Context) throws(GenerationFailure) -> JSONValue?
    {
        var facts = SchemaFacts()
        for schema in schemas { facts.merge(try self.facts(of: schema, depth: context.depth)) }
        if facts.isReadOnly { return nil }
        return try value(for: facts, context, documentValuesHere: context.usesDocumentValues)
    }

    /// `value` made different from the elements before it in a `uniqueItems` array: a number counted up, a string
    /// suffixed.
    private static func distinct(_ value: JSONValue, index: Int) throws(GenerationFailure) -> JSONValue {
        switch value {
        case .integer(let number): return .integer(number + Int64(index))
        case .string(let text): return .string(text + String(index + 1))
        default: throw GenerationFailure(reason: "the schema asks for several unique items of a kind not varied")
        }
    }
}

import APITestJSON
import APITestOpenAPI

// MARK: - Reading a schema's facts

extension ExampleValueGenerator {
    /// The keywords that constrain values in ways the generator does not build for: their schemas are still checked
    /// by the contract afterwards.
    static let unhandledKeywords: Set<String> = [
        "not", "if", "then", "else", "contains", "dependentRequired", "dependentSchemas", "propertyNames",
        "patternProperties", "unevaluatedProperties", "unevaluatedItems", "maxProperties", "minContains",
        "maxContains", "$dynamicRef", "$recursiveRef",
    ]

    /// The facts of `schema`: its `$ref` followed (3.0: the reference alone; 3.1: with its siblings), its `allOf`
    /// merged in.
    func facts(of schema: DescribedSchema, depth: Int) throws(GenerationFailure) -> SchemaFacts {
        guard depth <= Self.maximumDepth else {
            throw GenerationFailure(
                reason: "the schema's references and allOf nest deeper than \(Self.maximumDepth) levels")
        }
        switch schema.value {
        case .bool(true):
            return SchemaFacts()
        case .bool(false):
            var facts = SchemaFacts()
            facts.isFalse = true
            return facts
        case .object(let object):
            if case .string(let reference) = object["$ref"] {
                guard let target = description.resolve(schema) else {
                    throw GenerationFailure(reason: "the reference '\(reference)' cannot be followed here")
                }
                var facts = try self.facts(of: target, depth: depth + 1)
                if !description.isOpenAPI30 {
                    var siblings = object
                    siblings["$ref"] = nil
                    let rest = DescribedSchema(value: .object(siblings), path: schema.path, pointer: schema.pointer)
                    facts.merge(try self.facts(of: rest, depth: depth + 1))
                }
                return facts
            }
            var facts = try keywordFacts(object, schema)
            for (offset, _) in (object["allOf"]?.arrayValue ?? []).enumerated() {
                guard let member = schema.member("allOf", String(offset)) else { continue }
                facts.merge(try self.facts(of: member, depth: depth + 1))
            }
            return facts
        default:
            throw GenerationFailure(reason: "the schema at \(schema.fragment) is neither an object nor a boolean")
        }
    }

    /// The facts of one Schema Object's own keywords (not its `allOf`).
    private func keywordFacts(
        _ object: JSONObject, _ schema: DescribedSchema
    ) throws(GenerationFailure) -> SchemaFacts {
        var facts = SchemaFacts()
        switch object["type"] {
        case .string(let type): facts.types = [type]
        case .array(let types): facts.types = types.compactMap(\.stringValue)
        default: break
        }
        if let constant = object["const"] { facts.constants = [constant] }
        if let example = object["example"] { facts.documentValues.append(example) }
        if !description.isOpenAPI30, case .array(let examples) = object["examples"] {
            facts.documentValues += examples
        }
        if let value = object["default"] { facts.documentValues.append(value) }
        if case .array(let values) = object["enum"] { facts.enumerations = [values] }
        facts.format = object["format"]?.stringValue
        readBounds(object, into: &facts)
        if let multiple = object["multipleOf"]?.doubleValue, multiple > 0 { facts.multiples = [multiple] }
        facts.minLength = Self.count(object["minLength"])
        facts.maxLength = Self.count(object["maxLength"])
        if let pattern = object["pattern"]?.stringValue { facts.patterns = [pattern] }
        facts.minItems = Self.count(object["minItems"])
        facts.maxItems = Self.count(object["maxItems"])
        facts.uniqueItems = object["uniqueItems"] == .bool(true)
        if let items = schema.member("items") {
            if case .array(let list) = items.value {
                // Draft 4's tuple form, which 3.0 documents sometimes write: the elements in order.
                facts.prefixItems = list.indices.compactMap { items.member(String($0)) }
            } else {
                facts.items = [items]
            }
        }
        if case .array(let list) = object["prefixItems"] {
            facts.prefixItems = list.indices.compactMap { schema.member("prefixItems", String($0)) }
        }
        for (name, _) in object["properties"]?.objectValue ?? JSONObject() {
            if let property = schema.member("properties", name) { facts.addProperty(name, [property]) }
        }
        for name in object["required"]?.arrayValue ?? [] {
            if let text = name.stringValue, !facts.required.contains(text) { facts.required.append(text) }
        }
        switch object["additionalProperties"] {
        case .bool(false): facts.additionalPropertiesAllowed = false
        case .object: facts.additionalProperties = schema.member("additionalProperties").map { [$0] } ?? []
        default: break
        }
        facts.minProperties = Self.count(object["minProperties"])
        facts.isReadOnly = object["readOnly"] == .bool(true)
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let branches) = object[keyword], !branches.isEmpty else { continue }
            facts.choices.append(branches.indices.compactMap { schema.member(keyword, String($0)) })
        }
        facts.hasUnhandledKeywords = object.contains { Self.unhandledKeywords.contains($0.key) }
        return facts
    }

    /// `minimum`, `maximum` and the exclusive bounds, 3.0's boolean forms read as 3.1's numbers.
    private func readBounds(_ object: JSONObject, into facts: inout SchemaFacts) {
        facts.minimum = object["minimum"]?.doubleValue
        facts.maximum = object["maximum"]?.doubleValue
        switch object["exclusiveMinimum"] {
        case .bool(true):
            facts.exclusiveMinimum = facts.minimum
            facts.minimum = nil
        case let value?:
            facts.exclusiveMinimum = value.doubleValue
        case nil:
            break
        }
        switch object["exclusiveMaximum"] {
        case .bool(true):
            facts.exclusiveMaximum = facts.maximum
            facts.maximum = nil
        case let value?:
            facts.exclusiveMaximum = value.doubleValue
        case nil:
            break
        }
    }

    /// A non-negative integer keyword's value.
    private static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number >= 0, number <= Double(Int32.max) else { return nil }
        return Int(number.rounded(.down))
    }
}

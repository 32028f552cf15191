package import APITestJSON
package import APITestOpenAPI

/// A Schema Object of the document read for generating values: its `$ref`s followed, `allOf` merged, and OpenAPI
/// 3.0's forms (`nullable`, boolean `exclusiveMinimum`) read as 3.1's.
///
/// Only what generation needs is read; validity is always judged by the contract's validator, never here.
package struct SchemaView: Sendable {
    /// The JSON types allowed (`integer`, `string`, ...), nil for any.
    package var types: [String]?
    /// Whether `null` is allowed besides ``types``.
    package var nullable = false
    /// `enum`, when given (`const` as a one-member enum).
    package var enumValues: [JSONValue]?
    /// `minimum`, `maximum`, and whether each bound is exclusive.
    package var minimum: Double?
    package var maximum: Double?
    package var exclusiveMinimum = false
    package var exclusiveMaximum = false
    /// `multipleOf`.
    package var multipleOf: Double?
    /// `minLength`, `maxLength`.
    package var minLength: Int?
    package var maxLength: Int?
    /// `pattern`.
    package var pattern: String?
    /// `format`.
    package var format: String?
    /// `items` (the one schema of every item).
    package var items: DescribedSchema?
    /// `minItems`, `maxItems`, `uniqueItems`.
    package var minItems: Int?
    package var maxItems: Int?
    package var uniqueItems = false
    /// `properties`, in document order.
    package var properties: [(name: String, schema: DescribedSchema)] = []
    /// `required`.
    package var required: [String] = []
    /// `additionalProperties: false`.
    package var closed = false
    /// `minProperties`, `maxProperties`.
    package var minProperties: Int?
    package var maxProperties: Int?
    /// The alternatives of `oneOf` or `anyOf`.
    package var alternatives: [DescribedSchema] = []
    /// `example`, `examples` and `default`, in that order.
    package var examples: [JSONValue] = []
    /// `readOnly`, `writeOnly`.
    package var readOnly = false
    package var writeOnly = false
    /// `not` is set: generation cannot promise validity.
    package var hasNot = false

    /// The view of `schema`, following references with `description`; `depth` bounds nested `allOf`.
    package init(_ schema: DescribedSchema, in description: OpenAPIDescription, depth: Int = 0) {
        guard let resolved = description.resolve(schema), case .object(let object) = resolved.value else {
            if case .bool(false) = schema.value { enumValues = [] }
            return
        }
        read(object, resolved, description: description)
        if depth < 8, let parts = resolved.member("allOf"), case .array(let list) = parts.value {
            for index in list.indices {
                guard let part = parts.member(String(index)) else { continue }
                merge(SchemaView(part, in: description, depth: depth + 1))
            }
        }
        if description.isOpenAPI30, nullable == false, case .bool(true) = object["nullable"] { nullable = true }
    }

    /// An empty view (any value).
    package init() {}

    private mutating func read(_ object: JSONObject, _ schema: DescribedSchema, description: OpenAPIDescription) {
        switch object["type"] {
        case .string(let type): types = [type]
        case .array(let list):
            let names = list.compactMap(\.stringValue)
            nullable = names.contains("null")
            types = names.filter { $0 != "null" }
            if types?.isEmpty == true, nullable { types = ["null"] }
        default: break
        }
        if case .array(let values) = object["enum"] { enumValues = values }
        if let constant = object["const"] { enumValues = [constant] }
        minimum = object["minimum"]?.doubleValue
        maximum = object["maximum"]?.doubleValue
        switch object["exclusiveMinimum"] {
        case .bool(let flag): exclusiveMinimum = flag
        case .some(let value) where value.doubleValue != nil:
            if minimum == nil || value.doubleValue! >= minimum! {
                minimum = value.doubleValue
                exclusiveMinimum = true
            }
        default: break
        }
        switch object["exclusiveMaximum"] {
        case .bool(let flag): exclusiveMaximum = flag
        case .some(let value) where value.doubleValue != nil:
            if maximum == nil || value.doubleValue! <= maximum! {
                maximum = value.doubleValue
                exclusiveMaximum = true
            }
        default: break
        }
        multipleOf = object["multipleOf"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
        minLength = Self.count(object["minLength"])
        maxLength = Self.count(object["maxLength"])
        pattern = object["pattern"]?.stringValue
        format = object["format"]?.stringValue
        items = schema.member("items").flatMap { $0.value.objectValue != nil || $0.value == .bool(true) ? $0 : nil }
        minItems = Self.count(object["minItems"])
        maxItems = Self.count(object["maxItems"])
        if case .bool(true) = object["uniqueItems"] { uniqueItems = true }
        if case .object(let members) = object["properties"] {
            properties = members.keys.compactMap { name in schema.member("properties", name).map { (name, $0) } }
        }
        if case .array(let names) = object["required"] { required = names.compactMap(\.stringValue) }
        if case .bool(false) = object["additionalProperties"] { closed = true }
        if case .bool(false) = object["unevaluatedProperties"] { closed = true }
        minProperties = Self.count(object["minProperties"])
        maxProperties = Self.count(object["maxProperties"])
        for key in ["oneOf", "anyOf"] {
            guard case .array(let list) = object[key] else { continue }
            alternatives += list.indices.compactMap { schema.member(key, String($0)) }
        }
        if let example = object["example"] { examples.append(example) }
        if case .array(let list) = object["examples"] { examples += list }
        if let value = object["default"] { examples.append(value) }
        if case .bool(true) = object["readOnly"] { readOnly = true }
        if case .bool(true) = object["writeOnly"] { writeOnly = true }
        hasNot = object["not"] != nil
    }

    /// `other`'s constraints laid over these (an `allOf` part).
    private mutating func merge(_ other: SchemaView) {
        if let theirs = other.types { types = types.map { $0.filter(theirs.contains) } ?? theirs }
        if let values = other.enumValues { enumValues = values }
        if let bound = other.minimum, minimum.map({ bound > $0 }) ?? true {
            minimum = bound
            exclusiveMinimum = other.exclusiveMinimum
        }
        if let bound = other.maximum, maximum.map({ bound < $0 }) ?? true {
            maximum = bound
            exclusiveMaximum = other.exclusiveMaximum
        }
        multipleOf = multipleOf ?? other.multipleOf
        minLength =
            Swift.max(minLength ?? 0, other.minLength ?? 0) == 0
            ? minLength ?? other.minLength
            : Swift.max(minLength ?? 0, other.minLength ?? 0)
        maxLength = [maxLength, other.maxLength].compactMap { $0 }.min()
        pattern = pattern ?? other.pattern
        format = format ?? other.format
        items = items ?? other.items
        minItems = [minItems, other.minItems].compactMap { $0 }.max()
        maxItems = [maxItems, other.maxItems].compactMap { $0 }.min()
        uniqueItems = uniqueItems || other.uniqueItems
        for property in other.properties where !properties.contains(where: { $0.name == property.name }) {
            properties.append(property)
        }
        required += other.required.filter { !required.contains($0) }
        closed = closed || other.closed
        minProperties = [minProperties, other.minProperties].compactMap { $0 }.max()
        maxProperties = [maxProperties, other.maxProperties].compactMap { $0 }.min()
        if alternatives.isEmpty { alternatives = other.alternatives }
        examples += other.examples
        readOnly = readOnly || other.readOnly
        writeOnly = writeOnly || other.writeOnly
        hasNot = hasNot || other.hasNot
        nullable = nullable && (other.types == nil || other.nullable)
    }

    /// A non-negative integer keyword's value.
    private static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number >= 0, number < 1e9 else { return nil }
        return Int(number)
    }

    /// The type a value is generated as: the first of ``types``, else one the keywords suggest.
    package var primaryType: String {
        if let first = types?.first { return first }
        if !properties.isEmpty || !required.isEmpty { return "object" }
        if items != nil { return "array" }
        if minimum != nil || maximum != nil || multipleOf != nil { return "number" }
        if minLength != nil || maxLength != nil || pattern != nil || format != nil { return "string" }
        return "string"
    }
}

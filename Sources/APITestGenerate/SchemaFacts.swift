import APITestJSON
import APITestOpenAPI

/// What a Schema Object, its `$ref`s followed and its `allOf` merged, says about the values it accepts: the facts
/// ``ExampleValueGenerator`` builds a value from. `oneOf` and `anyOf` stay as choices, merged when one is taken.
struct SchemaFacts {
    /// `false`: no value is valid.
    var isFalse = false
    /// The types allowed, in the order written; nil when `type` says nothing.
    var types: [String]?
    /// `const` values met (more than one different: nothing is valid).
    var constants: [JSONValue] = []
    /// `example`, the elements of `examples` (3.1), then `default`: values the document gives.
    var documentValues: [JSONValue] = []
    /// `enum`s met: a value must be in each.
    var enumerations: [[JSONValue]] = []
    /// `format`, the first met.
    var format: String?
    /// The bounds on numbers: `minimum`, `maximum`, and the exclusive ones (3.0's boolean form translated).
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    /// `multipleOf`s met.
    var multiples: [Double] = []
    /// `minLength`, `maxLength` (the tightest met).
    var minLength: Int?
    var maxLength: Int?
    /// `pattern`s met.
    var patterns: [String] = []
    /// `minItems`, `maxItems`, `uniqueItems`.
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    /// The schemas every element must match (`items`; 3.0 and 3.1).
    var items: [DescribedSchema] = []
    /// `prefixItems` (3.1), the first met.
    var prefixItems: [DescribedSchema]?
    /// `properties`: each name with every schema met for it, in the order first met.
    var properties: [(name: String, schemas: [DescribedSchema])] = []
    /// `required`, in order, without repeats.
    var required: [String] = []
    /// `additionalProperties` schemas met; `additionalPropertiesAllowed` is false when one of them is `false`.
    var additionalProperties: [DescribedSchema] = []
    var additionalPropertiesAllowed = true
    /// `minProperties` (the largest met).
    var minProperties: Int?
    /// Whether a `readOnly: true` was met (such a property is left out of requests).
    var isReadOnly = false
    /// The `oneOf` and `anyOf` lists met, each a choice of branches.
    var choices: [[DescribedSchema]] = []
    /// Whether a keyword the generator does not satisfy by construction is present (`not`, `if`, `contains`, ...):
    /// the value is still checked against the whole schema afterwards.
    var hasUnhandledKeywords = false

    /// Whether any keyword constrains the value to objects, arrays, strings or numbers (used when `type` is absent).
    var impliedType: String? {
        if !properties.isEmpty || !required.isEmpty || minProperties != nil || !additionalProperties.isEmpty {
            return "object"
        }
        if !items.isEmpty || prefixItems != nil || minItems != nil || maxItems != nil { return "array" }
        if minLength != nil || maxLength != nil || !patterns.isEmpty || format != nil { return "string" }
        if minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || !multiples.isEmpty
        {
            return "number"
        }
        return nil
    }

    // MARK: - Merging

    /// These facts with `other`'s added: both must hold.
    mutating func merge(_ other: SchemaFacts) {
        isFalse = isFalse || other.isFalse
        if let theirs = other.types {
            types = types.map { Self.intersection($0, theirs) } ?? theirs
        }
        constants += other.constants
        documentValues += other.documentValues
        enumerations += other.enumerations
        format = format ?? other.format
        minimum = Self.tighter(minimum, other.minimum, by: max)
        maximum = Self.tighter(maximum, other.maximum, by: min)
        exclusiveMinimum = Self.tighter(exclusiveMinimum, other.exclusiveMinimum, by: max)
        exclusiveMaximum = Self.tighter(exclusiveMaximum, other.exclusiveMaximum, by: min)
        multiples += other.multiples
        minLength = Self.tighter(minLength, other.minLength, by: max)
        maxLength = Self.tighter(maxLength, other.maxLength, by: min)
        patterns += other.patterns
        minItems = Self.tighter(minItems, other.minItems, by: max)
        maxItems = Self.tighter(maxItems, other.maxItems, by: min)
        uniqueItems = uniqueItems || other.uniqueItems
        items += other.items
        prefixItems = prefixItems ?? other.prefixItems
        for (name, schemas) in other.properties { addProperty(name, schemas) }
        for name in other.required where !required.contains(name) { required.append(name) }
        additionalProperties += other.additionalProperties
        additionalPropertiesAllowed = additionalPropertiesAllowed && other.additionalPropertiesAllowed
        minProperties = Self.tighter(minProperties, other.minProperties, by: max)
        isReadOnly = isReadOnly || other.isReadOnly
        choices += other.choices
        hasUnhandledKeywords = hasUnhandledKeywords || other.hasUnhandledKeywords
    }

    /// Adds schemas for the property `name`.
    mutating func addProperty(_ name: String, _ schemas: [DescribedSchema]) {
        if let index = properties.firstIndex(where: { $0.name == name }) {
            properties[index].schemas += schemas
        } else {
            properties.append((name, schemas))
        }
    }

    /// The schemas of property `name`: those of `properties`, else those of `additionalProperties`.
    func schemas(ofProperty name: String) -> [DescribedSchema] {
        properties.first { $0.name == name }?.schemas ?? additionalProperties
    }

    /// The types both lists allow, in `mine`'s order (`integer` is also a `number`).
    static func intersection(_ mine: [String], _ theirs: [String]) -> [String] {
        var result: [String] = []
        for type in mine {
            var kept: String?
            if theirs.contains(type) {
                kept = type
            } else if type == "number" && theirs.contains("integer") || type == "integer" && theirs.contains("number") {
                kept = "integer"
            }
            if let kept, !result.contains(kept) { result.append(kept) }
        }
        return result
    }

    private static func tighter<T>(_ a: T?, _ b: T?, by pick: (T, T) -> T) -> T? {
        guard let a else { return b }
        guard let b else { return a }
        return pick(a, b)
    }
}

import APITestJSON
import APITestOpenAPI

/// Why no value could be built for a schema, in words for a comment (`the pattern '(?=a)b' is beyond what the
/// generator writes`).
struct GenerationFailure: Error, Sendable, Hashable {
    /// The reason, without a trailing period.
    var reason: String
}

/// A value for a schema and where it came from.
struct ExampleCandidate: Sendable, Hashable {
    /// The value.
    var value: JSONValue
    /// Whether the document gave it (`example`, `examples`, `default`) rather than the generator building it.
    var isFromDocument: Bool
}

/// Builds values for OpenAPI Schema Objects, valid by construction for the keywords it reads: `$ref` (followed),
/// `allOf` (merged), `oneOf`/`anyOf` (the first branch that works), `const`, `enum`, `type`, `format`, bounds,
/// lengths, simple patterns, `items`, `prefixItems`, and objects with their required properties only (`readOnly`
/// ones left out: they are not sent in requests).
///
/// ```swift
/// let generator = ExampleValueGenerator(description: description)
/// generator.candidates(for: schema)   // the document's example first, then generated values
/// ```
///
/// What it builds is still checked against the whole schema by the contract before it is written (keywords such as
/// `not` or `if` are not read here).
struct ExampleValueGenerator {
    /// Where `$ref`s lead.
    let description: OpenAPIDescription

    /// How deep schemas may nest (through properties, items and references) before generation gives up.
    static let maximumDepth = 24

    /// The values worth trying for `schema`, best first, without repeats: the values the document gives for it
    /// (`const`, `example`, `examples`, `default`), then a value built from it using the examples of its parts, then
    /// one built from the schema alone. Empty when nothing can be built; `failure` then says why.
    func candidates(for schema: DescribedSchema) -> (values: [ExampleCandidate], failure: GenerationFailure?) {
        var values: [ExampleCandidate] = []
        var failure: GenerationFailure?
        func add(_ value: JSONValue, fromDocument: Bool) {
            if !values.contains(where: { $0.value == value }) {
                values.append(ExampleCandidate(value: value, isFromDocument: fromDocument))
            }
        }
        do {
            let facts = try self.facts(of: schema, depth: 0)
            for value in facts.constants.prefix(1) + facts.documentValues { add(value, fromDocument: true) }
        } catch {
            failure = error
        }
        for usesExamples in [true, false] {
            do {
                add(
                    try value(for: schema, usesDocumentValues: usesExamples, topLevelValues: false), fromDocument: false
                )
            } catch {
                failure = failure ?? error
            }
        }
        return (values, values.isEmpty ? failure : nil)
    }

    /// A value for `schema`; `usesDocumentValues` takes the document's examples of nested schemas, and of this one
    /// when `topLevelValues`.
    func value(
        for schema: DescribedSchema, usesDocumentValues: Bool = true, topLevelValues: Bool = true
    ) throws(GenerationFailure) -> JSONValue {
        let facts = try self.facts(of: schema, depth: 0)
        let context = Context(depth: 0, usesDocumentValues: usesDocumentValues, budget: Budget())
        return try value(for: facts, context, documentValuesHere: usesDocumentValues && topLevelValues)
    }

    /// How many schemas one value may be built from, branches tried and abandoned included: `oneOf`s inside
    /// `oneOf`s whose branches fail deep down would otherwise be tried in every combination.
    static let maximumSteps = 20_000

    /// The steps left for building one value.
    final class Budget {
        private var remaining = ExampleValueGenerator.maximumSteps

        /// Takes a step; throws when none is left.
        func spend() throws(GenerationFailure) {
            remaining -= 1
            guard remaining >= 0 else {
                throw GenerationFailure(
                    reason:
                        "the schema takes more than \(ExampleValueGenerator.maximumSteps) steps to build a value for")
            }
        }
    }

    /// How a value is being built.
    struct Context {
        /// How deep in the schema.
        var depth: Int
        /// Whether the document's examples of nested schemas are used.
        var usesDocumentValues: Bool
        /// The steps left, shared by the whole value.
        var budget: Budget

        /// The context of a nested schema; throws past ``ExampleValueGenerator/maximumDepth``.
        func nested() throws(GenerationFailure) -> Context {
            guard depth < ExampleValueGenerator.maximumDepth else {
                throw GenerationFailure(
                    reason:
                        "the schema nests deeper than \(ExampleValueGenerator.maximumDepth) levels "
                        + "(a required property that leads back to its own schema?)")
            }
            return Context(depth: depth + 1, usesDocumentValues: usesDocumentValues, budget: budget)
        }
    }

    // MARK: - Choosing a value

    /// A value for `facts`: a `oneOf`/`anyOf` branch merged first, then `const`, the document's values, `enum`,
    /// and last a value of the first type allowed.
    func value(
        for facts: SchemaFacts, _ context: Context, documentValuesHere: Bool
    ) throws(GenerationFailure) -> JSONValue {
        try context.budget.spend()
        if let choice = facts.choices.first {
            var rest = facts
            rest.choices.removeFirst()
            var lastFailure = GenerationFailure(reason: "no branch of oneOf/anyOf can be built")
            for branch in choice {
                do {
                    var merged = rest
                    merged.merge(try self.facts(of: branch, depth: context.depth + 1))
                    return try value(for: merged, context, documentValuesHere: documentValuesHere)
                } catch {
                    lastFailure = error
                }
            }
            throw lastFailure
        }
        if facts.isFalse { throw GenerationFailure(reason: "the schema accepts no value") }
        if let constant = facts.constants.first {
            guard facts.constants.allSatisfy({ $0 == constant }) else {
                throw GenerationFailure(reason: "the schema's const values differ")
            }
            return constant
        }
        if documentValuesHere, let value = facts.documentValues.first { return value }
        if let first = facts.enumerations.first {
            let common = first.filter { value in facts.enumerations.dropFirst().allSatisfy { $0.contains(value) } }
            guard let value = common.first(where: { $0 != .null }) ?? common.first else {
                throw GenerationFailure(reason: "the schema's enum lists have no value in common")
            }
            return value
        }
        if let types = facts.types, types.isEmpty {
            throw GenerationFailure(reason: "the types of the schema's allOf have nothing in common")
        }
        let type = facts.types?.first { $0 != "null" } ?? facts.types?.first ?? facts.impliedType ?? "string"
        switch type {
        case "null": return .null
        case "boolean": return .bool(true)
        case "integer": return try integer(for: facts)
        case "number": return try number(for: facts)
        case "string": return try string(for: facts)
        case "array": return try array(for: facts, context)
        case "object": return try object(for: facts, context)
        default: throw GenerationFailure(reason: "the schema's type '\(type)' is not a JSON type")
        }
    }
}

import APITestJSON

/// Compiles the keywords of one object schema, honouring its draft and vocabularies.
struct KeywordContext {
    let compiler: SchemaCompiler
    let object: JSONObject
    let location: SchemaLocation
    let base: String
    let draft: JSONSchemaDraft
    let vocabulary: Vocabulary
    private(set) var usesUnevaluated = false

    init(
        compiler: SchemaCompiler, object: JSONObject, location: SchemaLocation, base: String,
        draft: JSONSchemaDraft, vocabulary: Vocabulary
    ) {
        self.compiler = compiler
        self.object = object
        self.location = location
        self.base = base
        self.draft = draft
        self.vocabulary = vocabulary
    }

    private var is2020: Bool { draft == .draft2020 }
    private var applicator: Bool { vocabulary.contains(.applicator) }
    private var validation: Bool { vocabulary.contains(.validation) }

    mutating func compileKeywords() throws(JSONSchemaError) -> [Keyword] {
        if draft == .draft7, let reference = object["$ref"] {
            let target = try compiler.referenceTarget(
                reference, at: location.appending("$ref"), base: base, draft: draft)
            return [Keyword(name: "$ref", check: .ref(target.node))]
        }
        var keywords: [Keyword] = []
        var late: [Keyword] = []
        for (key, value) in object {
            if let keyword = try compile(key, value) {
                if key.hasPrefix("unevaluated") { late.append(keyword) } else { keywords.append(keyword) }
            }
        }
        // `dependencies` is draft-07's; 2020-12 split it, but accepting it there too keeps old schemas working.
        if draft == .draft7 || (applicator && validation), case .object(let dependencies) = object["dependencies"] {
            keywords += try compileDependencies(dependencies)
        }
        return keywords + late
    }

    // MARK: - One keyword

    private mutating func compile(_ key: String, _ value: JSONValue) throws(JSONSchemaError) -> Keyword? {
        switch key {
        // Core
        case "$ref":
            return Keyword(name: key, check: .ref(try reference(value, key).node))
        case "$dynamicRef" where is2020:
            let target = try reference(value, key)
            var anchor: String?
            if let fragment = URIReference(target.absolute).fragment, !fragment.isEmpty, !fragment.hasPrefix("/"),
                case .string(let dynamicAnchor) = compiler.registry.value(at: target.location)?["$dynamicAnchor"],
                dynamicAnchor == fragment
            {
                anchor = fragment
            }
            return Keyword(name: key, check: .dynamicRef(target.node, anchor: anchor))

        case "$id", "$schema",
            "$anchor" where is2020, "$dynamicAnchor" where is2020:
            guard case .string = value else { throw invalid(key, "must be a string") }
            return nil
        case "$defs" where is2020, "definitions":
            guard case .object = value else { throw invalid(key, "must be an object of schemas") }
            return nil

        // Validation: any type
        case "type" where validation:
            return Keyword(name: key, check: .type(try types(value)))
        case "const" where validation:
            return Keyword(name: key, check: .const(value))
        case "enum" where validation:
            guard case .array(let values) = value else { throw invalid(key, "must be an array") }
            return Keyword(name: key, check: .enumeration(values))

        // Validation: numbers
        case "multipleOf" where validation:
            guard let decimal = value.numberValue, !decimal.isZero, !decimal.isNegative else {
                throw invalid(key, "must be a number greater than 0")
            }
            return Keyword(name: key, check: .multipleOf(decimal, value))
        case "maximum" where validation, "exclusiveMaximum" where validation:
            guard value.doubleValue != nil else { throw invalid(key, "must be a number") }
            return Keyword(name: key, check: .maximum(value, exclusive: key == "exclusiveMaximum"))
        case "minimum" where validation, "exclusiveMinimum" where validation:
            guard value.doubleValue != nil else { throw invalid(key, "must be a number") }
            return Keyword(name: key, check: .minimum(value, exclusive: key == "exclusiveMinimum"))

        // Validation: strings
        case "maxLength" where validation:
            return Keyword(name: key, check: .maxLength(try count(value, key)))
        case "minLength" where validation:
            return Keyword(name: key, check: .minLength(try count(value, key)))
        case "pattern" where validation:
            guard case .string(let source) = value else { throw invalid(key, "must be a string") }
            return Keyword(name: key, check: .pattern(try regex(source, key)))

        // Validation: arrays
        case "maxItems" where validation:
            return Keyword(name: key, check: .maxItems(try count(value, key)))
        case "minItems" where validation:
            return Keyword(name: key, check: .minItems(try count(value, key)))
        case "uniqueItems" where validation:
            guard case .bool(let unique) = value else { throw invalid(key, "must be a boolean") }
            return unique ? Keyword(name: key, check: .uniqueItems) : nil

        // Validation: objects
        case "maxProperties" where validation:
            return Keyword(name: key, check: .maxProperties(try count(value, key)))
        case "minProperties" where validation:
            return Keyword(name: key, check: .minProperties(try count(value, key)))
        case "required" where validation:
            let names = try strings(value, key)
            let annotated = names.map { (name: $0, annotations: directionAnnotations(ofProperty: $0)) }
            guard annotated.contains(where: { !$0.annotations.isEmpty }) else {
                return Keyword(name: key, check: .required(names))
            }
            return Keyword(name: key, check: .annotatedRequired(annotated))
        case "dependentRequired" where validation && is2020:
            guard case .object(let members) = value else { throw invalid(key, "must be an object") }
            var pairs: [(String, [String])] = []
            for (name, required) in members {
                pairs.append((name, try strings(required, key, member: name)))
            }
            return Keyword(name: key, check: .dependentRequired(pairs))

        // Applicators: objects
        case "properties" where applicator:
            var nodes: [CodePointKey: SchemaNode] = [:]
            for (name, _) in try members(value, key) { nodes[CodePointKey(name)] = try subschema(key, name) }
            return Keyword(name: key, check: .properties(nodes))
        case "patternProperties" where applicator:
            var pairs: [(SchemaRegex, SchemaNode)] = []
            for (source, _) in try members(value, key) {
                pairs.append((try regex(source, key, member: source), try subschema(key, source)))
            }
            return Keyword(name: key, check: .patternProperties(pairs))
        case "additionalProperties" where applicator:
            let names = Set((object["properties"]?.objectValue?.keys ?? []).map(CodePointKey.init))
            let patterns = (object["patternProperties"]?.objectValue?.keys ?? []).compactMap { SchemaRegex($0) }
            return Keyword(
                name: key, check: .additionalProperties(try subschema(key), names: names, patterns: patterns))
        case "propertyNames" where applicator:
            return Keyword(name: key, check: .propertyNames(try subschema(key)))
        case "dependentSchemas" where applicator && is2020:
            var pairs: [(String, SchemaNode)] = []
            for (name, _) in try members(value, key) { pairs.append((name, try subschema(key, name))) }
            return Keyword(name: key, check: .dependentSchemas(pairs))

        // Applicators: arrays
        case "prefixItems" where applicator && is2020:
            return Keyword(name: key, check: .prefixItems(try subschemaArray(value, key)))
        case "items" where applicator:
            if case .array = value {
                guard draft == .draft7 else { throw invalid(key, "must be a schema (use prefixItems for tuples)") }
                return Keyword(name: key, check: .prefixItems(try subschemaArray(value, key, allowEmpty: true)))
            }
            let start = is2020 ? (object["prefixItems"]?.arrayValue?.count ?? 0) : 0
            return Keyword(name: key, check: .items(try subschema(key), start: start))
        case "additionalItems" where draft == .draft7:
            guard case .array(let tuple) = object["items"] else { return nil }
            return Keyword(name: key, check: .items(try subschema(key), start: tuple.count))
        case "contains" where applicator:
            var minimum = 1
            var maximum: Int?
            if is2020 && validation {
                if let value = object["minContains"] { minimum = try count(value, "minContains") }
                if let value = object["maxContains"] { maximum = try count(value, "maxContains") }
            }
            return Keyword(name: key, check: .contains(try subschema(key), min: minimum, max: maximum))

        // Applicators: logic
        case "allOf" where applicator:
            return Keyword(name: key, check: .allOf(try subschemaArray(value, key)))
        case "anyOf" where applicator:
            return Keyword(name: key, check: .anyOf(try subschemaArray(value, key)))
        case "oneOf" where applicator:
            return Keyword(name: key, check: .oneOf(try subschemaArray(value, key)))
        case "not" where applicator:
            return Keyword(name: key, check: .not(try subschema(key)))
        case "if" where applicator:
            let then = object["then"] == nil ? nil : try subschema("then")
            let otherwise = object["else"] == nil ? nil : try subschema("else")
            // Kept without `then`/`else` too: a successful `if` still contributes annotations.
            return Keyword(name: key, check: .conditional(if: try subschema(key), then: then, else: otherwise))

        // Unevaluated
        case "unevaluatedProperties" where is2020 && vocabulary.contains(.unevaluated):
            usesUnevaluated = true
            return Keyword(name: key, check: .unevaluatedProperties(try subschema(key)))
        case "unevaluatedItems" where is2020 && vocabulary.contains(.unevaluated):
            usesUnevaluated = true
            return Keyword(name: key, check: .unevaluatedItems(try subschema(key)))

        default:
            return nil
        }
    }

    /// Draft-07 `dependencies`: arrays of names become required-checks, schemas become dependent schemas.
    private func compileDependencies(_ dependencies: JSONObject) throws(JSONSchemaError) -> [Keyword] {
        var required: [(String, [String])] = []
        var schemas: [(String, SchemaNode)] = []
        for (name, value) in dependencies {
            if case .array = value {
                required.append((name, try strings(value, "dependencies", member: name)))
            } else {
                schemas.append((name, try subschema("dependencies", name)))
            }
        }
        var keywords: [Keyword] = []
        if !required.isEmpty { keywords.append(Keyword(name: "dependencies", check: .dependentRequired(required))) }
        if !schemas.isEmpty { keywords.append(Keyword(name: "dependencies", check: .dependentSchemas(schemas))) }
        return keywords
    }

    // MARK: - Value helpers

    /// The annotations among `readOnly` and `writeOnly` that the schema of property `name` sets to true.
    private func directionAnnotations(ofProperty name: String) -> [String] {
        guard case .object(let property) = object["properties"]?.objectValue?[name] else { return [] }
        return ["readOnly", "writeOnly"].filter { property[$0] == .bool(true) }
    }

    /// An error about keyword `key` (or its member `member`) of this schema.
    /// `source` compiled for linear-time matching, or a located error saying why it cannot be.
    private func regex(_ source: String, _ key: String, member: String? = nil) throws(JSONSchemaError) -> SchemaRegex {
        do {
            return try SchemaRegex.compile(source)
        } catch {
            let what = member == nil ? "is not" : "\(JSONWriter.quoted(source)) is not"
            throw invalid(key, "\(what) a pattern apitest can match: \(error.reason)", member: member)
        }
    }

    private func invalid(_ key: String, _ reason: String, member: String? = nil) -> JSONSchemaError {
        var target = location.appending(key)
        if let member { target.pointer.append(member) }
        return compiler.error(at: target, "\(key) \(reason)")
    }

    private func reference(
        _ value: JSONValue, _ key: String
    ) throws(JSONSchemaError) -> (
        node: SchemaNode, location: SchemaLocation, absolute: String
    ) {
        try compiler.referenceTarget(value, at: location.appending(key), base: base, draft: draft)
    }

    private func subschema(_ tokens: String...) throws(JSONSchemaError) -> SchemaNode {
        let target = SchemaLocation(document: location.document, pointer: location.pointer + tokens)
        return try compiler.node(at: target)
    }

    private func subschemaArray(
        _ value: JSONValue, _ key: String, allowEmpty: Bool = false
    ) throws(JSONSchemaError)
        -> [SchemaNode]
    {
        guard case .array(let items) = value, allowEmpty || !items.isEmpty else {
            throw invalid(key, "must be a non-empty array of schemas")
        }
        var nodes: [SchemaNode] = []
        for index in items.indices { nodes.append(try subschema(key, String(index))) }
        return nodes
    }

    private func members(_ value: JSONValue, _ key: String) throws(JSONSchemaError) -> JSONObject {
        guard case .object(let object) = value else { throw invalid(key, "must be an object of schemas") }
        return object
    }

    private func count(_ value: JSONValue, _ key: String) throws(JSONSchemaError) -> Int {
        switch value {
        case .integer(let integer) where integer >= 0:
            return Int(clamping: integer)
        case .double(let double) where double >= 0 && double.rounded() == double && double.isFinite:
            return double >= Double(Int.max) ? Int.max : Int(double)
        case .number(let number) where number.isInteger && !number.isNegative:
            return Int.max // beyond 64 bits
        default:
            throw invalid(key, "must be a non-negative integer")
        }
    }

    private func strings(
        _ value: JSONValue, _ key: String, member: String? = nil
    ) throws(JSONSchemaError)
        -> [String]
    {
        guard case .array(let items) = value else {
            throw invalid(key, "must be an array of strings", member: member)
        }
        var result: [String] = []
        for item in items {
            guard case .string(let string) = item else {
                throw invalid(key, "must be an array of strings", member: member)
            }
            result.append(string)
        }
        return result
    }

    private static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "integer", "string"]

    private func types(_ value: JSONValue) throws(JSONSchemaError) -> [String] {
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array: names = try strings(value, "type")
        default: throw invalid("type", "must be a type name or an array of type names")
        }
        for name in names where !Self.typeNames.contains(name) {
            throw invalid("type", "has an unknown type \"\(name)\"")
        }
        return names
    }
}

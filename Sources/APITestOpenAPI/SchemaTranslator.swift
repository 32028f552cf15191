import APITestJSON
import APITestJSONSchema

/// Rewrites OpenAPI Schema Objects into JSON Schema 2020-12 as the batch compiler compiles them, and refuses what the
/// contract cannot check.
///
/// - OpenAPI 3.0: the Schema Object's keywords, and the JSON Schema 2020-12 keywords that 3.0 lacks but a
///   document may use (`const`, `patternProperties`, `prefixItems`, `unevaluatedProperties`, `contains`,
///   `dependentRequired`, `if`, ..., ``keywords2020Only``): those are checked as 2020-12 defines them, each with a
///   warning at its place (``warnings``), never ignored without a word; other keywords (extensions, annotations of
///   other dialects) are ignored; a `$ref` with siblings is the Reference Object, the siblings ignored; `nullable: true` adds `null` to `type` (and to `enum`)
///   only beside a `type`; boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form; `example`,
///   `discriminator`, `xml`, `externalDocs` are dropped; `format` stays an annotation.
/// - OpenAPI 3.1: 2020-12 as written; a `$schema` other than 2020-12 or OpenAPI's dialect is refused.
/// - Both: a required property whose schema is `readOnly` or `writeOnly` through a `$ref` (or an `allOf` member) has
///   the annotation copied beside it, so that the compiled `required` knows it: requests then do not require
///   `readOnly` properties, nor responses `writeOnly` ones (``JSONSchema/exemptingRequired(annotatedWith:)``), from
///   one compiled schema.
final class SchemaTranslator {
    /// The keywords of OpenAPI 3.0's Schema Object that are kept (those that validate, and annotations).
    static let keywords30: Set<String> = [
        "type", "allOf", "oneOf", "anyOf", "not", "items", "properties", "additionalProperties", "multipleOf",
        "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
        "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum", "nullable",
        "title", "description", "default", "format", "readOnly", "writeOnly", "deprecated",
    ]

    /// The JSON Schema 2020-12 keywords that assert or apply subschemas and that OpenAPI 3.0's Schema Object lacks:
    /// kept and checked in a 3.0 document, with a warning.
    static let keywords2020Only: Set<String> = [
        "const", "patternProperties", "prefixItems", "unevaluatedProperties", "unevaluatedItems", "contains",
        "minContains", "maxContains", "dependentRequired", "dependentSchemas", "propertyNames", "if", "then", "else",
    ]

    /// The formats JSON Schema 2020-12 defines and those of the OpenAPI Format Registry
    /// (https://spec.openapis.org/registry/format/): any other is warned about, once (``OpenAPILoadProblem/Kind/unknownFormat(_:)``).
    static let knownFormats: Set<String> = [
        // JSON Schema 2020-12
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
        "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
        "relative-json-pointer", "regex",
        // The OpenAPI Format Registry
        "int8", "int16", "int32", "int64", "uint8", "float", "double", "decimal", "decimal128", "byte", "binary",
        "base64url", "char", "commonmark", "html", "http-date", "media-range", "password", "sf-binary",
        "sf-boolean", "sf-decimal", "sf-integer", "sf-string", "sf-token",
    ]

    /// The deepest place a schema may be in its file, in JSON Pointer tokens: compiling nests a call per level of
    /// subschemas, and a debug build spends some 40 KB of stack on each; real schemas stay far below.
    static let maximumPointerDepth = 128

    let dialect: SchemaDialect
    let documents: OpenAPIDocumentSet
    /// The problem that made the last transform throw, to report in place of the compiler's error.
    private var raised: (kind: OpenAPILoadProblem.Kind, location: SpecLocation)?
    /// What the translation read otherwise than the document's version says, or ignored, each at its place, once,
    /// in the order met: 2020-12 keywords in 3.0 schemas (``keywords2020Only``), 3.0's forms in 3.1 schemas, unknown
    /// formats (once per format), misused `examples`.
    private(set) var warnings: [(kind: OpenAPILoadProblem.Kind, location: SpecLocation)] = []
    private var warned: Set<SpecLocation> = []
    /// The unknown formats warned about.
    private var formatsWarned: Set<String> = []
    /// Absolute `$id`s of OpenAPI 3.1 schemas seen while compiling, and where they are.
    private(set) var identifiers: [String: SpecLocation] = [:]
    /// The file path of each document URI met (nil for other URIs).
    private var paths: [String: String?] = [:]

    /// A translator for schemas of `dialect`, read from `documents`.
    init(dialect: SchemaDialect, documents: OpenAPIDocumentSet) {
        self.dialect = dialect
        self.documents = documents
    }

    /// The problem behind the last error thrown, once.
    func takeRaised() -> (kind: OpenAPILoadProblem.Kind, location: SpecLocation)? {
        defer { raised = nil }
        return raised
    }

    // MARK: - The transform

    /// The schema at `pointer` in the document `documentURI`, translated; schemas outside the document's files
    /// (bundled meta-schemas) are left as they are.
    func transform(
        _ object: JSONObject, documentURI: String, pointer: [String]
    ) throws(JSONSchemaError) -> JSONObject {
        let path: String?
        if let known = paths[documentURI] {
            path = known
        } else {
            path = ReferenceText.path(ofFileURI: documentURI)
            paths[documentURI] = path
        }
        guard let path else { return object }
        let location = SpecLocation(path: path, pointer: pointer)
        if pointer.count > Self.maximumPointerDepth {
            try raise(.schemaNestingTooDeep(limit: Self.maximumPointerDepth), at: location, documentURI)
        }
        if case .string(let reference) = object["$ref"] {
            if let scheme = Self.scheme(of: reference), scheme == "file" {
                try raise(.externalReference(reference: reference), at: location.appending("$ref"), documentURI)
            }
            if let cycle = referenceCycle(from: location, object) {
                try raise(.referenceCycle(cycle), at: location.appending("$ref"), documentURI)
            }
        }
        switch dialect {
        case .openAPI30:
            if object["$ref"] == nil {
                for (key, _) in object where Self.keywords2020Only.contains(key) {
                    warn(.keywordNotInOpenAPI30(keyword: key), at: location.appending(key))
                }
                if object["examples"] != nil {
                    warn(.exampleMisuse(.examplesInOpenAPI30Schema), at: location.appending("examples"))
                }
                warnUnknownFormat(object, at: location)
            }
            return annotatingRequired(translated30(object), at: location)
        case .openAPI31:
            if let declared = object["$schema"], case .string(let uri) = declared,
                !SchemaDialect.isSupportedDialect(uri)
            {
                try raise(.unsupportedDialect(uri), at: location.appending("$schema"), documentURI)
            }
            if case .string(let id) = object["$id"], let scheme = Self.scheme(of: id), scheme != "file" {
                identifiers[Self.withoutFragment(id)] = location
            }
            return annotatingRequired(translated31(object, at: location), at: location)
        }
    }

    /// Records a warning at `location`, once.
    private func warn(_ kind: OpenAPILoadProblem.Kind, at location: SpecLocation) {
        if warned.insert(location).inserted { warnings.append((kind, location)) }
    }

    /// Warns about the schema's `format` when it is a string no specification defines, once per format.
    private func warnUnknownFormat(_ object: JSONObject, at location: SpecLocation) {
        guard case .string(let format) = object["format"], !Self.knownFormats.contains(format),
            formatsWarned.insert(format).inserted
        else { return }
        warn(.unknownFormat(format), at: location.appending("format"))
    }

    private func raise(
        _ kind: OpenAPILoadProblem.Kind, at location: SpecLocation, _ documentURI: String
    ) throws(JSONSchemaError) -> Never {
        raised = (kind, location)
        throw JSONSchemaError(
            kind: .invalidSchema, documentURI: documentURI, schemaPath: JSONPointer.text(location.pointer),
            reason: "refused by the OpenAPI translation")
    }

    // MARK: - OpenAPI 3.0

    /// A 3.0 Schema Object as 2020-12.
    func translated30(_ object: JSONObject) -> JSONObject {
        if let reference = object["$ref"] { return JSONObject([(key: "$ref", value: reference)]) }
        var result = JSONObject(
            object.filter { Self.keywords30.contains($0.key) || Self.keywords2020Only.contains($0.key) })
        Self.translateExclusiveBounds(&result)
        Self.translateNullable(&result)
        return result
    }

    /// OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` as 2020-12's numeric form: `true` takes the
    /// sibling bound's value (and the bound goes); `false`, or `true` without a bound, goes.
    static func translateExclusiveBounds(_ result: inout JSONObject) {
        for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard case .bool(let flag) = result[exclusive] else { continue }
            result[exclusive] = nil
            if flag, let value = result[bound] {
                result[bound] = nil
                result[exclusive] = value
            }
        }
    }

    /// OpenAPI 3.0's `nullable`: `true` adds `null` to a sibling `type` (and to `enum`); the keyword goes.
    static func translateNullable(_ result: inout JSONObject) {
        if case .bool(true) = result["nullable"], let type = result["type"] {
            switch type {
            case .string(let name) where name != "null":
                result["type"] = [.string(name), "null"]
            case .array(let names) where !names.contains(.string("null")):
                result["type"] = .array(names + ["null"])
            default:
                break
            }
            if case .array(let values) = result["enum"], !values.contains(.null) {
                result["enum"] = .array(values + [.null])
            }
        }
        result["nullable"] = nil
    }

    // MARK: - OpenAPI 3.1

    /// A 3.1 Schema Object with OpenAPI 3.0's forms that vendors keep in 3.1 documents read as 3.0 means them, each
    /// with a warning: a boolean `exclusiveMinimum`/`exclusiveMaximum` (the numeric form with the sibling bound's
    /// value), `nullable` (`null` added to a sibling `type`, and `enum`); and `examples` that is not an array dropped.
    private func translated31(_ object: JSONObject, at location: SpecLocation) -> JSONObject {
        warnUnknownFormat(object, at: location)
        var changed = false
        for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard case .bool(let flag) = object[exclusive] else { continue }
            let hasBound = flag && Self.isNumber(object[bound])
            warn(
                .booleanExclusiveBound(keyword: exclusive, value: flag, bound: hasBound ? bound : nil),
                at: location.appending(exclusive))
            changed = true
        }
        if case .bool(let flag) = object["nullable"] {
            var addedTo: String?
            if flag, object["type"] != nil {
                addedTo = object["enum"].map { _ in "type and enum" } ?? "type"
            }
            warn(.nullableInOpenAPI31(value: flag, addedTo: addedTo), at: location.appending("nullable"))
            changed = true
        }
        if let examples = object["examples"], !Self.isArray(examples) {
            warn(
                .exampleMisuse(.schemaExamplesNotArray(found: OpenAPILoader.type(of: examples))),
                at: location.appending("examples"))
            changed = true
        }
        guard changed else { return object }
        var result = object
        if let examples = result["examples"], !Self.isArray(examples) { result["examples"] = nil }
        Self.translateExclusiveBounds(&result)
        Self.translateNullable(&result)
        return result
    }

    private static func isNumber(_ value: JSONValue?) -> Bool {
        switch value {
        case .integer?, .double?, .number?: true
        default: false
        }
    }

    private static func isArray(_ value: JSONValue) -> Bool {
        if case .array = value { return true }
        return false
    }

    // MARK: - readOnly and writeOnly

    /// `object` with `readOnly: true` / `writeOnly: true` written beside each required property whose schema has it
    /// only through a `$ref` or an `allOf` member (the compiler reads them beside the property).
    private func annotatingRequired(_ object: JSONObject, at location: SpecLocation) -> JSONObject {
        guard case .array(let required) = object["required"], case .object(var properties) = object["properties"]
        else { return object }
        var changed = false
        for entry in required {
            guard case .string(let name) = entry, case .object(var property) = properties[name] else { continue }
            var marked = false
            for flag in ["readOnly", "writeOnly"] where property[flag] != .bool(true) {
                if isMarked(.object(property), flag, at: location.appending("properties", name), depth: 0) {
                    property[flag] = true
                    marked = true
                }
            }
            if marked {
                properties[name] = .object(property)
                changed = true
            }
        }
        guard changed else { return object }
        var result = object
        result["properties"] = .object(properties)
        return result
    }

    /// Whether the property schema `value` has `flag: true`, itself, through its `$ref`s, or in an `allOf` member.
    private func isMarked(_ value: JSONValue, _ flag: String, at location: SpecLocation, depth: Int) -> Bool {
        guard depth < 16, case .object(let object) = value else { return false }
        if case .bool(true) = object[flag] { return true }
        if case .string(let reference) = object["$ref"],
            case .location(let target) = ReferenceText.target(of: reference, from: location.path),
            let referenced = documents.value(at: target),
            isMarked(referenced, flag, at: target, depth: depth + 1)
        {
            return true
        }
        if case .array(let members) = object["allOf"] {
            for (offset, member) in members.enumerated()
            where isMarked(member, flag, at: location.appending("allOf", String(offset)), depth: depth + 1) {
                return true
            }
        }
        return false
    }

    // MARK: - References

    /// The references of a cycle of schemas that are only references (`A: {$ref: B}`, `B: {$ref: A}`), which no
    /// value can ever get through; nil when the chain from `object` ends.
    private func referenceCycle(from location: SpecLocation, _ object: JSONObject) -> [String]? {
        var visited: [SpecLocation] = [location]
        var chain: [String] = []
        var current = object
        var path = location.path
        while case .string(let reference) = current["$ref"], dialect == .openAPI30 || current.count == 1 {
            chain.append(reference)
            guard case .location(let target) = ReferenceText.target(of: reference, from: path),
                case .object(let next) = documents.value(at: target)
            else { return nil }
            if visited.contains(target) { return target == location ? chain : nil }
            guard visited.count < 64 else { return nil }
            visited.append(target)
            current = next
            path = target.path
        }
        return nil
    }

    /// The scheme of a URI reference, lower-cased; nil for a relative reference.
    static func scheme(of reference: String) -> String? {
        guard ReferenceText.hasScheme(reference), let colon = reference.firstIndex(of: ":") else { return nil }
        return reference[..<colon].lowercased()
    }

    private static func withoutFragment(_ uri: String) -> String {
        uri.firstIndex(of: "#").map { String(uri[..<$0]) } ?? uri
    }
}

import APITestJSON

/// What a parameter's or header's schema says its value is, so that its text can be read into typed JSON before it
/// is validated (`?limit=10` is the integer 10 when the schema says `integer`).
indirect enum ValueShape: Sendable, Hashable {
    /// Nothing known: the text stays a string.
    case unknown
    /// A scalar of one of these types.
    case scalar(ScalarTypes)
    /// An array of these items.
    case array(ValueShape)
    /// An object with these properties (others read as strings).
    case object([String: ValueShape])

    /// JSON Schema's scalar types.
    struct ScalarTypes: OptionSet, Sendable, Hashable {
        let rawValue: Int
        static let integer = ScalarTypes(rawValue: 1)
        static let number = ScalarTypes(rawValue: 2)
        static let boolean = ScalarTypes(rawValue: 4)
        static let string = ScalarTypes(rawValue: 8)
        static let null = ScalarTypes(rawValue: 16)
    }

    // MARK: - From a schema

    /// The shape of the schema at `location` (following `$ref`s and looking into `allOf`/`anyOf`/`oneOf` when it
    /// has no `type`).
    static func of(_ location: SpecLocation, in documents: OpenAPIDocumentSet, dialect: SchemaDialect) -> ValueShape {
        guard let value = documents.value(at: location) else { return .unknown }
        return of(value, at: location, in: documents, dialect: dialect, depth: 0)
    }

    private static func of(
        _ value: JSONValue, at location: SpecLocation, in documents: OpenAPIDocumentSet, dialect: SchemaDialect,
        depth: Int
    ) -> ValueShape {
        guard depth < 16, case .object(let object) = value else { return .unknown }
        if case .string(let reference) = object["$ref"], dialect == .openAPI30 || object["type"] == nil {
            guard case .location(let target) = ReferenceText.target(of: reference, from: location.path),
                let referenced = documents.value(at: target)
            else { return .unknown }
            return of(referenced, at: target, in: documents, dialect: dialect, depth: depth + 1)
        }
        var names: [String] = []
        switch object["type"] {
        case .string(let name): names = [name]
        case .array(let items): names = items.compactMap(\.stringValue)
        default: break
        }
        if names.isEmpty {
            for keyword in ["allOf", "anyOf", "oneOf"] {
                guard case .array(let members) = object[keyword] else { continue }
                for (offset, member) in members.enumerated() {
                    let shape = of(
                        member, at: location.appending(keyword, String(offset)), in: documents, dialect: dialect,
                        depth: depth + 1)
                    if shape != .unknown { return shape }
                }
            }
            return .unknown
        }
        if names.contains("array"), let items = object["items"] {
            return .array(of(items, at: location.appending("items"), in: documents, dialect: dialect, depth: depth + 1))
        }
        if names.contains("array") { return .array(.unknown) }
        if names.contains("object") {
            var properties: [String: ValueShape] = [:]
            if case .object(let members) = object["properties"] {
                for (name, schema) in members {
                    properties[name] = of(
                        schema, at: location.appending("properties", name), in: documents, dialect: dialect,
                        depth: depth + 1)
                }
            }
            return .object(properties)
        }
        var types: ScalarTypes = []
        for name in names {
            switch name {
            case "integer": types.insert(.integer)
            case "number": types.insert(.number)
            case "boolean": types.insert(.boolean)
            case "string": types.insert(.string)
            case "null": types.insert(.null)
            default: break
            }
        }
        if dialect == .openAPI30, case .bool(true) = object["nullable"] { types.insert(.null) }
        return types.isEmpty ? .unknown : .scalar(types)
    }

    // MARK: - Reading text

    /// `text` as the scalar this shape expects: a number, a boolean or null when it reads as one of the allowed
    /// types, else the string (which the schema then refuses when a string is not allowed).
    func scalar(_ text: String) -> JSONValue {
        guard case .scalar(let types) = self else { return .string(text) }
        if types.contains(.integer), let integer = Int64(text) { return .integer(integer) }
        if types.contains(.number), Self.looksNumeric(text), let value = try? JSONParser.parse(text),
            value.doubleValue != nil
        {
            return value
        }
        if types.contains(.boolean) {
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        }
        if types.contains(.null), text.isEmpty || text == "null", !types.contains(.string) { return .null }
        return .string(text)
    }

    /// Whether ``scalar(_:)`` reads every text as that very string (no number, boolean or null to read instead).
    var readsTextAsString: Bool {
        guard case .scalar(let types) = self else { return true }
        return types.isDisjoint(with: [.integer, .number, .boolean])
            && (!types.contains(.null) || types.contains(.string))
    }

    /// Whether values of this shape are arrays or objects (read from several parts of a text).
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        case .unknown, .scalar: false
        }
    }

    /// The shape of an array's items, an object's property, or unknown.
    var itemShape: ValueShape {
        if case .array(let items) = self { return items }
        return .unknown
    }

    /// The shape of property `name` of an object.
    func property(_ name: String) -> ValueShape {
        if case .object(let properties) = self { return properties[name] ?? .unknown }
        return .unknown
    }

    private static func looksNumeric(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }
}

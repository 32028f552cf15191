import APITestSupport
import APITestYAML
import Foundation

/// The query of a general-form check or a capture (`jsonpath`, `header`, `cookie`, `regex`, `query: status`, ...),
/// and the keys of the short forms that name a query (`cookies`, `certificate`, `image`).
enum QueryParser {
    /// The keys of a capture, and with the predicates those of a general-form check: one query key, the argument
    /// of some (`attribute` of a cookie, `group` of a regex) and `filters`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case query, header, cookie, jsonpath, xpath, regex, certificate, image, attribute, group, filters

        /// The query keys: `query` (a query without argument), then those that take one.
        static let queries: [Key] = [.query, .header, .cookie, .jsonpath, .xpath, .regex, .certificate, .image]

        var schema: SchemaValue {
            switch self {
            case .query:
                .described(
                    "A query without argument: status, body, duration (ms), bodySize, sha256, md5, url, redirects.",
                    ["enum": .strings(Query.PlainName.allCases.map(\.rawValue))])
            case .header:
                .described(
                    "A response header's value (text).",
                    ["type": SuiteSchema.scalarTypes, "pattern": SuiteSchema.token])
            case .cookie:
                .described(
                    "A cookie the response sets; its value, or an attribute with `attribute` (or `name[Attribute]`).",
                    ["type": SuiteSchema.scalarTypes, "pattern": .string(QueryParser.cookieKeyPattern)])
            case .attribute:
                .described(
                    "The cookie attribute: Value, Expires, Max-Age, Domain, Path, Secure, HttpOnly, SameSite "
                        + "(case-insensitive).",
                    ["type": "string", "pattern": .string("^" + QueryParser.cookieAttributePattern + "$")])
            case .jsonpath: .described("An RFC 9535 JSONPath on the body.", ["type": "string", "pattern": #"^\s*\$"#])
            case .xpath:
                .described(
                    "An XPath 1.0 expression on the XML body.", ["type": SuiteSchema.scalarTypes, "pattern": #"\S"#])
            case .regex:
                .described(
                    "A regular expression on the body text: group 1 of the first match, or the whole match when it "
                        + "has no group.", ref: "text")
            case .group:
                .described(
                    "The capture group of `regex` (0: the whole match).",
                    ["type": "integer", "minimum": 0, "maximum": 99])
            case .certificate:
                .described(
                    "A fact of the leaf certificate.", ["enum": .strings(CertificateField.allCases.map(\.rawValue))])
            case .image: .described("A fact of an image body.", ["enum": .strings(ImageField.allCases.map(\.rawValue))])
            case .filters: .ref("filters")
            }
        }
    }

    /// A cookie attribute's name as ``CookieAttribute/init(named:)`` reads it (any case, hyphens anywhere), as a
    /// pattern of the editor schema.
    static let cookieAttributePattern =
        "(?:"
        + CookieAttribute.allCases.map { attribute in
            attribute.rawValue.lowercased().replacingOccurrences(of: "-", with: "").reduce("-*") { pattern, character in
                pattern + (character.isLetter ? "[\(character)\(character.uppercased())]-*" : "\(character)-*")
            }
        }.joined(separator: "|") + ")"

    /// A `cookies` key or a `cookie` query, `session` or `session[Max-Age]`, as a pattern of the editor schema.
    static let cookieKeyPattern = #"^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\["# + cookieAttributePattern + #"\])?$"#

    // MARK: - Queries

    /// The query of a general-form item or a capture, and the keys it used (`cookie` + `attribute`, `regex` +
    /// `group`); reports a missing, doubled or bad query.
    static func parse(
        _ entries: [MapEntry], at node: YAMLNode, for owner: String, in context: SuiteParseContext
    ) -> (Query, Set<String>)? {
        let keys = Key.queries.map(\.rawValue)
        let found = entries.filter { keys.contains($0.key) }
        guard found.count == 1, let entry = found.first else {
            if let second = found.dropFirst().first {
                context.error(
                    "\(owner) takes one query, found " + found.map { "'\($0.key)'" }.joined(separator: " and "),
                    at: second.keyNode)
            } else if let near = entries.first(where: { KeyAlias.closest(to: $0.key, in: keys) != nil }) {
                context.error(
                    "unknown key '\(near.key)' in \(owner)" + KeyAlias.didYouMean(near.key, in: keys),
                    at: near.keyNode)
            } else {
                context.error(
                    "\(owner) needs a query: one of " + keys.joined(separator: ", "), at: node,
                    note: "for example {jsonpath: $.id}, {header: Location} or {query: status}")
            }
            return nil
        }
        guard let value = context.text(entry.value, for: entry.key) else { return nil }
        var used: Set<String> = [entry.key]
        switch Key(named: entry.key) {
        case .query?:
            guard let query = Query.plainQueries[value] else {
                let note =
                    Query.argumentKeys.contains(value)
                    ? "'\(value)' takes an argument: write {\(value): ...}"
                    : "queries: " + Query.plainQueries.keys.sorted().joined(separator: ", ")
                context.error(
                    "unknown query '\(value)'" + Suggestion.didYouMean(value, in: Query.plainQueries.keys),
                    at: entry.value, note: note)
                return nil
            }
            return (query, used)
        case .header?:
            return context.checkHeaderName(value, at: entry.value) ? (.header(value), used) : nil
        case .cookie?:
            guard case .cookie(let name, var attribute)? = cookie(value, at: entry.value, in: context) else {
                return nil
            }
            if let attributeEntry = entries[Key.attribute] {
                used.insert(Key.attribute.rawValue)
                guard let attributeName = context.text(attributeEntry.value, for: "attribute") else { return nil }
                guard let named = CookieAttribute(named: attributeName) else {
                    context.error(
                        "unknown cookie attribute '\(attributeName)'"
                            + Suggestion.didYouMean(attributeName, in: CookieAttribute.allCases.map(\.rawValue)),
                        at: attributeEntry.value)
                    return nil
                }
                attribute = named
            }
            return (.cookie(name: name, attribute: attribute), used)
        case .jsonpath?:
            return context.jsonPath(value, at: entry.value).map { (.jsonpath($0), used) }
        case .xpath?:
            return context.checkXPath(value, at: entry.value) ? (.xpath(value), used) : nil
        case .regex?:
            guard let regex = context.regularExpression(value, at: entry.value) else { return nil }
            var group = regex.numberOfCaptureGroups > 0 ? 1 : 0
            if let groupEntry = entries[Key.group] {
                used.insert(Key.group.rawValue)
                guard let number = context.integer(groupEntry.value, for: "group", in: 0...99) else { return nil }
                guard number <= regex.numberOfCaptureGroups else {
                    context.error(
                        "'group' is \(number), but the pattern has \(regex.numberOfCaptureGroups) capture group(s)",
                        at: groupEntry.value)
                    return nil
                }
                group = number
            }
            return (.regex(regex, group: group), used)
        case .certificate?:
            return field(value, of: "certificate", at: entry.value, in: context).map { (Query.certificate($0), used) }
        default:
            return field(value, of: "image", at: entry.value, in: context).map { (Query.image($0), used) }
        }
    }

    // MARK: - Query arguments

    /// A field of the `certificate` or `image` query, named `key`; reports an unknown one with the known fields.
    static func field<Field: RawRepresentable & CaseIterable>(
        _ key: String, of what: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> Field? where Field.RawValue == String {
        if let field = Field(rawValue: key) { return field }
        let names = Field.allCases.map(\.rawValue)
        context.error(
            "unknown \(what) field '\(key)'" + Suggestion.didYouMean(key, in: names), at: node,
            note: "\(what) fields: " + names.joined(separator: ", "))
        return nil
    }

    /// A `cookies` key: `session` (the value) or `session[Max-Age]` (an attribute).
    static func cookie(_ key: String, at node: YAMLNode, in context: SuiteParseContext) -> Query? {
        var name = key
        var attribute = CookieAttribute.value
        if key.hasSuffix("]"), let open = key.firstIndex(of: "[") {
            name = String(key[..<open])
            let attributeName = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
            guard let named = CookieAttribute(named: attributeName) else {
                context.error(
                    "unknown cookie attribute '\(attributeName)'"
                        + Suggestion.didYouMean(attributeName, in: CookieAttribute.allCases.map(\.rawValue)),
                    at: node)
                return nil
            }
            attribute = named
        }
        guard SuiteParseContext.isToken(name) else {
            context.error("invalid cookie name '\(name)'", at: node)
            return nil
        }
        return .cookie(name: name, attribute: attribute)
    }
}

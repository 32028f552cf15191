import APITestJSON

/// Reads parameter and header values from their serialized text (OpenAPI's styles, RFC 6570's expansions) into
/// typed JSON, guided by the schema's shape, so that they can be validated.
enum ParameterValues {
    /// A header's value in `simple` style: `a, b` for arrays, `k,v,k,v` for objects (`k=v,k=v` exploded); spaces
    /// around items are the list syntax's, not the items'.
    static func header(_ text: String, shape: ValueShape, explode: Bool) -> JSONValue {
        structured(text, separator: ",", shape: shape, explode: explode, decode: false, trim: true)
    }

    /// A path parameter's raw value (as in the URL) in `style`.
    static func path(_ raw: String, name: String, style: String, shape: ValueShape, explode: Bool) -> JSONValue {
        switch style {
        case "label":
            let text = raw.hasPrefix(".") ? String(raw.dropFirst()) : raw
            return structured(text, separator: explode ? "." : ",", shape: shape, explode: explode, decode: true)
        case "matrix":
            let prefix = ";\(name)="
            switch shape {
            case .array where explode:
                let items = raw.split(separator: ";").map { item in
                    PercentEncoding.decodeLeniently(item.hasPrefix("\(name)=") ? item.dropFirst(name.count + 1) : item)
                }
                return .array(items.map { shape.itemShape.scalar($0) })
            case .object where explode:
                return structured(
                    String(raw.drop { $0 == ";" }), separator: ";", shape: shape, explode: true, decode: true)
            default:
                let text = raw.hasPrefix(prefix) ? String(raw.dropFirst(prefix.count)) : raw
                return structured(text, separator: ",", shape: shape, explode: explode, decode: true)
            }
        default:
            return structured(raw, separator: ",", shape: shape, explode: explode, decode: true)
        }
    }

    /// The value of a query (or cookie) parameter among `pairs` (names decoded, values as sent); nil when absent.
    ///
    /// - Parameter otherNames: the names of the operation's other parameters in the same place, which an exploded
    ///   `form` object does not take.
    static func form(
        _ pairs: [(name: String, value: Substring)], name: String, style: String, explode: Bool, shape: ValueShape,
        otherNames: Set<String>
    ) -> JSONValue? {
        if style == "deepObject" {
            let prefix = name + "["
            var members: [JSONObject.Member] = []
            for pair in pairs where pair.name.hasPrefix(prefix) && pair.name.hasSuffix("]") {
                let key = String(pair.name.dropFirst(prefix.count).dropLast())
                members.append((key, shape.property(key).scalar(PercentEncoding.decodeLeniently(pair.value))))
            }
            return members.isEmpty ? nil : .object(JSONObject(members))
        }
        if style == "form", explode, case .object(let properties) = shape {
            let taken = pairs.filter { pair in
                properties.isEmpty ? !otherNames.contains(pair.name) : properties[pair.name] != nil
            }
            guard !taken.isEmpty else { return nil }
            return .object(
                JSONObject(
                    taken.map { ($0.name, shape.property($0.name).scalar(PercentEncoding.decodeLeniently($0.value))) }))
        }
        let values = pairs.filter { $0.name == name }.map(\.value)
        guard let first = values.first else { return nil }
        switch shape {
        case .array(let items) where style == "form" && explode:
            return .array(values.map { items.scalar(PercentEncoding.decodeLeniently($0)) })
        case .array(let items) where style == "spaceDelimited" || style == "pipeDelimited":
            let separator: Character = style == "spaceDelimited" ? " " : "|"
            let text = PercentEncoding.decodeLeniently(first)
            return .array(
                text.split(separator: separator, omittingEmptySubsequences: false).map { items.scalar(String($0)) })
        default:
            return structured(String(first), separator: ",", shape: shape, explode: false, decode: true)
        }
    }

    /// The query of a URL as pairs: names percent-decoded, values as sent.
    static func queryPairs(_ query: Substring?) -> [(name: String, value: Substring)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (PercentEncoding.decodeLeniently(pair), "") }
            return (PercentEncoding.decodeLeniently(pair[..<equals]), pair[pair.index(after: equals)...])
        }
    }

    /// The cookies of `Cookie` header values as pairs.
    static func cookiePairs(_ headers: [String]) -> [(name: String, value: Substring)] {
        headers.flatMap { header in
            header.split(separator: ";").compactMap { part -> (name: String, value: Substring)? in
                let trimmed = Substring(part.trimmingWhitespace())
                guard !trimmed.isEmpty else { return nil }
                guard let equals = trimmed.firstIndex(of: "=") else { return (String(trimmed), "") }
                return (String(trimmed[..<equals]), trimmed[trimmed.index(after: equals)...])
            }
        }
    }

    // MARK: - Arrays and objects

    /// `text` as the shape says: items split at `separator`; object members as `k,v` pairs or, exploded, `k=v`.
    private static func structured(
        _ text: String, separator: Character, shape: ValueShape, explode: Bool, decode: Bool, trim: Bool = false
    ) -> JSONValue {
        let read: (Substring) -> String = { part in
            let text = trim ? Substring(part.trimmingWhitespace()) : part
            return decode ? PercentEncoding.decodeLeniently(text) : String(text)
        }
        switch shape {
        case .array(let items):
            guard !text.isEmpty else { return .array([]) }
            return .array(
                text.split(separator: separator, omittingEmptySubsequences: false).map { items.scalar(read($0)) })
        case .object:
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            var members: [JSONObject.Member] = []
            if explode {
                for part in parts where !part.isEmpty {
                    let equals = part.firstIndex(of: "=") ?? part.endIndex
                    let key = read(part[..<equals])
                    let value = equals == part.endIndex ? "" : read(part[part.index(after: equals)...])
                    members.append((key, shape.property(key).scalar(value)))
                }
            } else {
                var index = 0
                while index + 1 < parts.count {
                    let key = read(parts[index])
                    members.append((key, shape.property(key).scalar(read(parts[index + 1]))))
                    index += 2
                }
            }
            return .object(JSONObject(members))
        default:
            return shape.scalar(read(Substring(text)))
        }
    }
}

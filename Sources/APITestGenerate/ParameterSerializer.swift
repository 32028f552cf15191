import APITestJSON
import APITestOpenAPI

/// Writes parameter values as OpenAPI's styles put them on the wire (`simple`, `label`, `matrix` in paths; `form`,
/// `spaceDelimited`, `pipeDelimited`, `deepObject` in queries; `simple` in headers, `form` in cookies), each value
/// percent-encoded where a URL carries it.
///
/// ```swift
/// ParameterSerializer.path(.array([1, 2]), name: "ids", style: "matrix", explode: true)   // ";ids=1;ids=2"
/// ParameterSerializer.query(.array(["a b"]), name: "tags", style: "form", explode: true)  // ["tags=a%20b"]
/// ```
enum ParameterSerializer {
    // MARK: - Places

    /// A path parameter's text in its segment.
    static func path(_ value: JSONValue, name: String, style: String, explode: Bool) -> String {
        let encoded = { (text: String) in encodePathValue(text) }
        switch style {
        case "label":
            switch value {
            case .array(let items): return "." + items.map { encoded(text($0)) }.joined(separator: explode ? "." : ",")
            case .object(let object):
                return "." + pairs(object, encoded).joined(separator: explode ? "." : ",")
            default: return "." + encoded(text(value))
            }
        case "matrix":
            let key = encodeComponent(name)
            switch value {
            case .array(let items):
                if explode { return items.map { ";\(key)=" + encoded(text($0)) }.joined() }
                return ";\(key)=" + items.map { encoded(text($0)) }.joined(separator: ",")
            case .object(let object):
                if explode {
                    return object.members.map { ";" + encodeComponent($0.key) + "=" + encoded(text($0.value)) }.joined()
                }
                return ";\(key)=" + pairs(object, encoded).joined(separator: ",")
            default:
                return ";\(key)=" + encoded(text(value))
            }
        default:
            return simple(value, explode: explode, encode: encoded)
        }
    }

    /// A query parameter's `name=value` pairs, encoded.
    static func query(_ value: JSONValue, name: String, style: String, explode: Bool) -> [String] {
        let key = encodeComponent(name)
        let encoded = { (text: String) in encodeComponent(text) }
        switch value {
        case .array(let items):
            switch style {
            case "spaceDelimited": return ["\(key)=" + items.map { encoded(text($0)) }.joined(separator: "%20")]
            case "pipeDelimited": return ["\(key)=" + items.map { encoded(text($0)) }.joined(separator: "|")]
            default:
                if explode { return items.map { "\(key)=" + encoded(text($0)) } }
                return ["\(key)=" + items.map { encoded(text($0)) }.joined(separator: ",")]
            }
        case .object(let object):
            if style == "deepObject" {
                return object.members.map { "\(key)%5B" + encodeComponent($0.key) + "%5D=" + encoded(text($0.value)) }
            }
            if explode { return object.members.map { encodeComponent($0.key) + "=" + encoded(text($0.value)) } }
            return ["\(key)=" + pairs(object, encoded).joined(separator: ",")]
        default:
            return ["\(key)=" + encoded(text(value))]
        }
    }

    /// A header value (`simple` style, not encoded).
    static func header(_ value: JSONValue, explode: Bool) -> String {
        simple(value, explode: explode) { $0 }
    }

    /// A cookie's `name=value` (`form` style, not encoded).
    static func cookie(_ value: JSONValue, name: String, explode: Bool) -> String {
        switch value {
        case .array(let items) where explode: return items.map { "\(name)=" + text($0) }.joined(separator: "; ")
        case .array(let items): return "\(name)=" + items.map(text).joined(separator: ",")
        case .object(let object) where explode:
            return object.members.map { "\($0.key)=" + text($0.value) }.joined(separator: "; ")
        case .object(let object): return "\(name)=" + pairs(object, { $0 }).joined(separator: ",")
        default: return "\(name)=" + text(value)
        }
    }

    // MARK: - Pieces

    /// `simple`: array items joined by commas; an object's members as `k,v,k2,v2` or, exploded, `k=v,k2=v2`.
    private static func simple(_ value: JSONValue, explode: Bool, encode: (String) -> String) -> String {
        switch value {
        case .array(let items): return items.map { encode(text($0)) }.joined(separator: ",")
        case .object(let object):
            if explode {
                return object.members.map { encode($0.key) + "=" + encode(text($0.value)) }.joined(separator: ",")
            }
            return pairs(object, encode).joined(separator: ",")
        default: return encode(text(value))
        }
    }

    /// An object's members as alternating keys and values.
    private static func pairs(_ object: JSONObject, _ encode: (String) -> String) -> [String] {
        object.members.flatMap { [encode($0.key), encode(text($0.value))] }
    }

    /// A scalar's text: a string as it is, a number or boolean as JSON writes it, null empty; a nested array or
    /// object as JSON.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let string): return string
        default: return JSONWriter.string(value)
        }
    }

    // MARK: - Percent-encoding

    /// `text` with every byte outside RFC 3986's unreserved characters percent-encoded (for query names and values,
    /// and path values).
    static func encodeComponent(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percentEscape(byte)
            }
        }
        return result
    }

    /// A path value encoded, with `.` and `..` encoded too (a URL would drop them as dot segments).
    static func encodePathValue(_ text: String) -> String {
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        return encodeComponent(text)
    }

    /// A literal part of a path template: bytes a path cannot carry encoded, the rest (`/`, `%`, sub-delimiters, `:`
    /// and `@`) kept as written.
    static func encodePathLiteral(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if isUnreserved(byte) || "/%!$&'()*+,;=:@".utf8.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percentEscape(byte)
            }
        }
        return result
    }

    /// `%2F` for `/`.
    private static func percentEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

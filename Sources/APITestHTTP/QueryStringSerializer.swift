public import APITestJSON

/// Serializes nested parameters into a query string with AFNetworking's conventions.
///
/// Objects become `key[sub]=value` with keys sorted, arrays `key[]=value` in order, `null` a bare `key`,
/// booleans `true`/`false`. Names and values are percent-encoded per RFC 3986 (only unreserved characters stay);
/// the brackets the nesting adds stay literal. `{filter: {role: admin}, ids: [1, 2]}` gives
/// `filter[role]=admin&ids[]=1&ids[]=2`.
public enum QueryStringSerializer {
    /// The `name=value` pairs of `parameters`, encoded, in order.
    public static func pairs(_ parameters: JSONValue) -> [(name: String, value: String?)] {
        var result: [(name: String, value: String?)] = []
        switch parameters {
        case .object(let object):
            for (key, value) in object.members.sorted(by: { $0.key < $1.key }) {
                collect(value, name: PercentEncoding.encode(key), into: &result)
            }
        case .array(let items):
            for item in items { collect(item, name: "", into: &result) }
        default:
            break
        }
        return result
    }

    /// The whole query string (without a leading `?`).
    public static func string(_ parameters: JSONValue) -> String {
        pairs(parameters).map { pair in pair.value.map { "\(pair.name)=\($0)" } ?? pair.name }.joined(separator: "&")
    }

    private static func collect(_ value: JSONValue, name: String, into result: inout [(name: String, value: String?)]) {
        switch value {
        case .object(let object):
            for (key, nested) in object.members.sorted(by: { $0.key < $1.key }) {
                collect(nested, name: "\(name)[\(PercentEncoding.encode(key))]", into: &result)
            }
        case .array(let items):
            for item in items { collect(item, name: "\(name)[]", into: &result) }
        case .null:
            result.append((name, nil))
        default:
            result.append((name, PercentEncoding.encode(scalarText(value))))
        }
    }

    /// The text of a scalar parameter value.
    static func scalarText(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .double(let d):
            if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .number(let n): return n.description
        case .null: return ""
        case .array, .object: return ""
        }
    }
}

import APITestJSON
import Foundation

/// Encodes JSON values as property lists (XML or binary) with Foundation's `PropertyListSerialization`.
enum PropertyListBody {
    /// The property list for `value`; null anywhere in it is an error, as property lists cannot hold it.
    static func encode(
        _ value: JSONValue, format: PropertyListSerialization.PropertyListFormat
    ) throws(HTTPError)
        -> Data
    {
        let object = try plistObject(value, path: "$")
        do {
            return try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
        } catch {
            throw HTTPError(.propertyListEncoding(failure: "\(error)"))
        }
    }

    private static func plistObject(_ value: JSONValue, path: String) throws(HTTPError) -> Any {
        switch value {
        case .null:
            throw HTTPError(.propertyListNull(path: path))
        case .bool(let flag): return NSNumber(value: flag)
        case .integer(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .number(let number):
            // A property list holds 64-bit integers and doubles: beyond them, the nearest double.
            if let unsigned = UInt64(number.description) { return NSNumber(value: unsigned) }
            return NSNumber(value: number.doubleValue)
        case .string(let text): return text
        case .array(let items):
            var result: [Any] = []
            for (index, item) in items.enumerated() { result.append(try plistObject(item, path: "\(path)[\(index)]")) }
            return result
        case .object(let object):
            var result: [String: Any] = [:]
            for (key, item) in object.members { result[key] = try plistObject(item, path: "\(path).\(key)") }
            return result
        }
    }
}

import APITestJSON
import Foundation

/// Decodes XML and binary property lists to JSON values, so JSONPath queries work on them.
///
/// Dictionaries become objects (keys sorted, as property lists keep no order), arrays arrays, integers
/// integers, reals doubles, booleans booleans, strings strings, dates ISO 8601 strings in UTC
/// (`2024-05-01T12:00:00Z`) and data base64 strings. Accepts `application/x-plist`, `application/x-bplist`, `application/plist` and
/// `application/vnd.apple.plist`, and bodies without `Content-Type` or sent as `application/octet-stream` that start
/// with the binary signature `bplist0`.
public struct PropertyListResponseSerializer: ResponseSerializer {
    public var acceptableContentTypes: Set<String>?

    public static let defaultContentTypes: Set<String> = [
        "application/x-plist", "application/x-bplist", "application/plist", "application/vnd.apple.plist",
    ]

    public init(acceptableContentTypes: Set<String>? = Self.defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    public var name: String { "plist" }

    public func accepts(_ response: HTTPResponse) -> Bool {
        if acceptsContentType(of: response) { return true }
        let type = response.mediaType ?? ""
        guard type.isEmpty || type == MIMEType.octetStream else { return false }
        return response.body.starts(with: Array("bplist0".utf8))
    }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        let body = response.body
        if body.isEmpty { throw failure("the body is empty, not a property list", byteOffset: 0) }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: body, options: [], format: nil)
        } catch {
            let isBinary = body.starts(with: Array("bplist".utf8))
            throw failure(
                "not a valid \(isBinary ? "binary" : "XML") property list: \(Self.reason(of: error))")
        }
        do {
            return .propertyList(try Self.jsonValue(object, path: "$"))
        } catch {
            throw failure(error.reason)
        }
    }

    // MARK: - Conversion

    private struct ConversionFailure: Error {
        var reason: String
    }

    private static func jsonValue(_ object: Any, path: String) throws(ConversionFailure) -> JSONValue {
        switch object {
        case let string as String:
            return .string(string)
        case let dictionary as [String: Any]:
            var members: [JSONObject.Member] = []
            for key in dictionary.keys.sorted() {
                members.append((key: key, value: try jsonValue(dictionary[key]!, path: "\(path).\(key)")))
            }
            return .object(JSONObject(members))
        case let array as [Any]:
            var items: [JSONValue] = []
            items.reserveCapacity(array.count)
            for (index, item) in array.enumerated() { items.append(try jsonValue(item, path: "\(path)[\(index)]")) }
            return .array(items)
        case let date as Date:
            return .string(date.formatted(.iso8601))
        case let data as Data:
            return .string(data.base64EncodedString())
        case let flag as Bool where isBoolean(object):
            return .bool(flag)
        case let number as NSNumber:
            return numberValue(number)
        case let integer as Int:
            return .integer(Int64(integer))
        case let double as Double:
            return .double(double)
        default:
            throw ConversionFailure(reason: "unsupported property-list value of type \(type(of: object)) at \(path)")
        }
    }

    /// Whether a bridged value is a boolean rather than a number.
    private static func isBoolean(_ object: Any) -> Bool {
        if object is Bool, !(object is NSNumber) { return true }
        guard let number = object as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func numberValue(_ number: NSNumber) -> JSONValue {
        switch String(cString: number.objCType) {
        case "f", "d": return .double(number.doubleValue)
        case "Q":
            let value = number.uint64Value
            return value <= UInt64(Int64.max) ? .integer(Int64(value)) : .number(JSONNumber(text: String(value))!)
        default: return .integer(number.int64Value)
        }
    }

    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return debug }
        return nsError.localizedDescription
    }
}

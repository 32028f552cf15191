public import APITestJSON
import Foundation

/// Decodes JSON bodies (RFC 8259) with ``JSONParser``, like AFNetworking's `AFJSONResponseSerializer`.
///
/// Accepts `application/json`, `text/json`, `text/javascript` and any `+json` type; a response without
/// `Content-Type` is accepted when its first non-whitespace byte is `{` or `[`.
public struct JSONResponseSerializer: ResponseSerializer {
    /// Drops object members whose value is null, at every depth (AFNetworking's `removesKeysWithNullValues`);
    /// nulls inside arrays stay, as in AFNetworking.
    public var removesKeysWithNullValues: Bool
    public var acceptableContentTypes: Set<String>?

    public static let defaultContentTypes: Set<String> = ["application/json", "text/json", "text/javascript", "+json"]

    public init(
        removesKeysWithNullValues: Bool = false, acceptableContentTypes: Set<String>? = Self.defaultContentTypes
    ) {
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.acceptableContentTypes = acceptableContentTypes
    }

    public var name: String { "json" }

    public func accepts(_ response: HTTPResponse) -> Bool {
        if acceptsContentType(of: response) { return true }
        guard response.headers["Content-Type"] == nil else { return false }
        return Self.looksLikeJSON(response.body)
    }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        let value: JSONValue
        do {
            value = try JSONParser.parse(response.body)
        } catch {
            var failure = failure(error.message, byteOffset: error.offset, line: error.line, column: error.column)
            failure.pointer = error.pointerText
            throw failure
        }
        return .json(removesKeysWithNullValues ? Self.removingKeysWithNullValues(value) : value)
    }

    /// `value` without object members whose value is null, at every depth.
    public static func removingKeysWithNullValues(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(removingKeysWithNullValues))
        case .object(let object):
            var members: [JSONObject.Member] = []
            members.reserveCapacity(object.count)
            for (key, item) in object.members {
                if case .null = item { continue }
                members.append((key: key, value: removingKeysWithNullValues(item)))
            }
            return .object(JSONObject(members))
        default:
            return value
        }
    }

    /// Whether the first byte after whitespace (and a UTF-8 byte order mark) opens an object or array.
    static func looksLikeJSON(_ body: Data) -> Bool {
        var index = body.startIndex
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        while index < body.endIndex {
            switch body[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }
}

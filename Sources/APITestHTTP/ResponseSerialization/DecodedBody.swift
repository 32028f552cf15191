public import APITestJSON
public import Foundation

/// A response body decoded by one of the chain's serializers.
public enum DecodedBody: Sendable {
    /// A JSON document (`JSONResponseSerializer`).
    case json(JSONValue)
    /// An XML document ready for XPath queries (`XMLResponseSerializer`).
    case xml(XPathDocument)
    /// A property list (XML or binary) as JSON: dates as ISO 8601 strings, data as base64 strings.
    case propertyList(JSONValue)
    /// The facts read from an image's header (`ImageResponseSerializer`).
    case image(ImageInfo)
    /// Text decoded with the charset of `Content-Type` (`TextResponseSerializer`).
    case text(String)
    /// The raw bytes (`BinaryResponseSerializer`).
    case binary(Data)

    /// The name of the decoder that produces this case: `json`, `xml`, `plist`, `image`, `text` or `binary`.
    public var decoderName: String {
        switch self {
        case .json: return "json"
        case .xml: return "xml"
        case .propertyList: return "plist"
        case .image: return "image"
        case .text: return "text"
        case .binary: return "binary"
        }
    }

    /// The JSON value of a JSON or property-list body, which JSONPath queries run on; `nil` for other bodies.
    public var jsonValue: JSONValue? {
        switch self {
        case .json(let value), .propertyList(let value): return value
        default: return nil
        }
    }
}

import Foundation

/// Parses XML bodies with libxml2 into an ``XPathDocument`` for XPath 1.0 queries (AFNetworking's
/// `AFXMLDocumentResponseSerializer`).
///
/// Accepts `application/xml`, `text/xml` and any `+xml` type; a response without `Content-Type` whose body starts
/// with `<?xml` is accepted too. The network and external entities are never loaded (see ``XPathDocument``).
public struct XMLResponseSerializer: ResponseSerializer {
    public var acceptableContentTypes: Set<String>?

    public static let defaultContentTypes: Set<String> = ["application/xml", "text/xml", "+xml"]

    public init(acceptableContentTypes: Set<String>? = Self.defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    public var name: String { "xml" }

    public func accepts(_ response: HTTPResponse) -> Bool {
        if acceptsContentType(of: response) { return true }
        guard response.headers["Content-Type"] == nil else { return false }
        var body = response.body[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        return body.starts(with: Array("<?xml".utf8))
    }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        let charset = response.headers["Content-Type"].flatMap(MediaTypePattern.charset(of:))
        return .xml(try XPathDocument.parse(response.body, encoding: charset))
    }
}

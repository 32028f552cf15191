import Foundation

/// Passes the body through as bytes; accepts any response, so it belongs last in a chain.
public struct BinaryResponseSerializer: ResponseSerializer {
    public init() {}

    public var name: String { "binary" }
    public var acceptableContentTypes: Set<String>? { nil }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        .binary(response.body)
    }
}

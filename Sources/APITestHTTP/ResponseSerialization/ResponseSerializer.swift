import APITestSupport
import Foundation

/// Decodes response bodies of the content types it accepts, like AFNetworking's response serializers.
///
/// A ``ResponseSerializerChain`` asks each serializer in turn whether it ``accepts(_:)`` a response and lets the
/// first that does ``decode(_:)`` it.
public protocol ResponseSerializer: Sendable {
    /// The decoder's name: `json`, `xml`, `plist`, `image`, `text` or `binary`.
    var name: String { get }
    /// The media types accepted, `nil` for any. Patterns may be exact (`application/json`), a structured-syntax
    /// suffix (`+json`, `+xml`) or a wildcard (`text/*`, `*/*`); see ``MediaTypePattern``.
    var acceptableContentTypes: Set<String>? { get }
    /// Whether this serializer takes the response; the default checks `Content-Type` against
    /// ``acceptableContentTypes``.
    func accepts(_ response: HTTPResponse) -> Bool
    /// Decodes the response body, or says which byte is wrong and why.
    func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody
}

extension ResponseSerializer {
    /// Whether the response's `Content-Type` matches one of ``acceptableContentTypes`` (any when that is `nil`);
    /// a response without `Content-Type` is accepted only by serializers that accept any type.
    public func accepts(_ response: HTTPResponse) -> Bool {
        acceptsContentType(of: response)
    }

    /// The content-type test behind the default ``accepts(_:)``, for serializers that add sniffing to it.
    public func acceptsContentType(of response: HTTPResponse) -> Bool {
        guard let patterns = acceptableContentTypes else { return true }
        // A received `Content-Type` read in place: its essence found among the patterns byte for byte (equal as
        // `String`s then) is the common case, without making a `String` of the value; anything else is asked below.
        let inPlace = response.headers.withReceivedValue(named: "Content-Type") { value -> Bool? in
            // No `Content-Type`: no media type, which no pattern accepts.
            guard let value else { return false }
            guard let essence = MediaTypePattern.lowerCaseASCIIEssence(of: value) else { return nil }
            guard let first = essence.first else { return false }
            guard first != UInt8(ascii: "+") else { return nil }
            return patterns.contains { pattern in
                pattern.withUTF8Bytes { bytes in
                    bytes.count == essence.count && memcmp(bytes.baseAddress!, essence.baseAddress!, bytes.count) == 0
                }
            } ? true : nil
        }
        if let inPlace, let accepted = inPlace { return accepted }
        guard let mediaType = response.mediaType, !mediaType.isEmpty else { return false }
        // A pattern equal to the type (`application/json`) is the common case. Not for a bare suffix (`+json`),
        // which a suffix pattern matches only as the end of a longer type.
        if mediaType.utf8.first != UInt8(ascii: "+"), patterns.containsComparingFew(mediaType) { return true }
        return patterns.contains {
            MediaTypePattern.matches(essence: mediaType, pattern: MediaTypePattern.essence(of: $0))
        }
    }

    /// An error of this decoder.
    func failure(
        _ reason: String, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil
    ) -> ResponseSerializationError {
        ResponseSerializationError(decoder: name, reason: reason, byteOffset: byteOffset, line: line, column: column)
    }
}

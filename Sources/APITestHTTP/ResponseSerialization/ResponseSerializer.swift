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
        // The common case answered from a received `Content-Type` read in place, without a `String` of it.
        if let answer = response.headers.withReceivedValue(
            named: "Content-Type", { Self.quickAnswer(receivedContentType: $0, patterns: patterns) }) ?? nil
        {
            return answer
        }
        guard let mediaType = response.mediaType, !mediaType.isEmpty else { return false }
        // A pattern equal to the type (`application/json`) is the common case. Not for a bare suffix (`+json`),
        // which a suffix pattern matches only as the end of a longer type.
        if mediaType.utf8.first != UInt8(ascii: "+"), patterns.containsComparingFew(mediaType) { return true }
        return patterns.contains {
            MediaTypePattern.matches(essence: mediaType, pattern: MediaTypePattern.essence(of: $0))
        }
    }

    /// The content-type test on a received `Content-Type`'s bytes (`nil`: no such field) when it can answer
    /// without making a `String`: false for no field or an empty essence, true for an essence in lower-case ASCII
    /// that is one of `patterns` byte for byte (equal as `String`s then, which is the first test below); `nil`,
    /// for ``acceptsContentType(of:)`` to decide, in every other case (capitals, bytes beyond ASCII, a bare
    /// suffix such as `+json`, a match only by suffix or wildcard).
    private static func quickAnswer(
        receivedContentType value: UnsafeBufferPointer<UInt8>?, patterns: Set<String>
    ) -> Bool? {
        guard let value else { return false }
        guard let essence = MediaTypePattern.lowerCaseASCIIEssence(of: value) else { return nil }
        guard let first = essence.first else { return false }
        guard first != UInt8(ascii: "+") else { return nil }
        let listed = patterns.contains { pattern in
            pattern.withUTF8Bytes { bytes in
                bytes.count == essence.count && memcmp(bytes.baseAddress!, essence.baseAddress!, bytes.count) == 0
            }
        }
        return listed ? true : nil
    }

    /// An error of this decoder.
    func failure(
        _ reason: String, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil
    ) -> ResponseSerializationError {
        ResponseSerializationError(decoder: name, reason: reason, byteOffset: byteOffset, line: line, column: column)
    }
}

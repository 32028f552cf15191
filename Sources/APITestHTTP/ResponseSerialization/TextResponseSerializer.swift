import Foundation

/// Decodes `text/*` bodies to a string with the charset named by `Content-Type`.
///
/// Charsets: `utf-8`, `utf-16` (byte order from a byte order mark, big-endian without one, RFC 2781),
/// `utf-16le`, `utf-16be`, `iso-8859-1` (`latin1`), `us-ascii` and `windows-1252`, under their common aliases.
/// Without a charset parameter the body is read as UTF-8: RFC 7231 dropped HTTP/1.1's ISO-8859-1 default, and
/// UTF-8 is what servers send today; a UTF-16 byte order mark then selects UTF-16. A UTF-8 byte order mark is
/// dropped. Bytes invalid in the charset are an error naming their offset, never replaced.
public struct TextResponseSerializer: ResponseSerializer {
    public var acceptableContentTypes: Set<String>?

    public init(acceptableContentTypes: Set<String>? = ["text/*"]) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    public var name: String { "text" }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        let charset = response.headers["Content-Type"].flatMap(MediaTypePattern.charset(of:))
        do {
            return .text(try TextDecoding.decode(response.body, charset: charset))
        } catch {
            throw failure(error.reason, byteOffset: error.offset)
        }
    }
}

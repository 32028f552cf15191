import Foundation

/// Reads an image's format, width and height from its header (PNG, JPEG, GIF, WebP, BMP); pixels are not decoded.
///
/// Accepts `image/png`, `image/jpeg`, `image/gif`, `image/webp` and `image/bmp` (and their common aliases), and
/// bodies without `Content-Type` or sent as `application/octet-stream` whose first bytes are one of these formats'
/// signatures (for BMP, "BM" and a known DIB header size). The format comes from the bytes, not from the declared
/// type.
public struct ImageResponseSerializer: ResponseSerializer {
    public var acceptableContentTypes: Set<String>?

    public static let defaultContentTypes: Set<String> = [
        "image/png", "image/jpeg", "image/jpg", "image/pjpeg", "image/gif", "image/webp", "image/bmp",
        "image/x-bmp", "image/x-ms-bmp",
    ]

    public init(acceptableContentTypes: Set<String>? = Self.defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    public var name: String { "image" }

    public func accepts(_ response: HTTPResponse) -> Bool {
        if acceptsContentType(of: response) { return true }
        let type = response.mediaType ?? ""
        guard type.isEmpty || type == MIMEType.octetStream else { return false }
        return ImageHeaderParser.sniff(response.body, strict: true) != nil
    }

    public func decode(_ response: HTTPResponse) throws(ResponseSerializationError) -> DecodedBody {
        do {
            return .image(try ImageHeaderParser.parse([UInt8](response.body)))
        } catch {
            throw failure(error.reason, byteOffset: error.offset)
        }
    }
}

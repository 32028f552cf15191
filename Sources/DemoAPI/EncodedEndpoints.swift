import Foundation
import Hummingbird

// MARK: - EncodedEndpoints

/// Bodies in other encodings: gzip and deflate content coding, property lists, PNG and GIF images.
enum EncodedEndpoints {
    static func routes() -> [Route] {
        [
            Route(["GET"], "/gzip") { request in try compressed(request, format: .gzip) },
            Route(["GET"], "/deflate") { request in try compressed(request, format: .zlib) },
            Route(["GET"], "/plist") { request in try plist(request) },
            Route(["GET"], "/image/png") { request in
                let (width, height) = try dimensions(request, default: 256)
                return Reply.bytes(try ImageEncoder.png(width: width, height: height), contentType: "image/png")
            },
            Route(["GET"], "/image/gif") { request in
                let (width, height) = try dimensions(request, default: 16)
                return Reply.bytes(ImageEncoder.gif(width: width, height: height), contentType: "image/gif")
            },
        ]
    }

    /// A JSON description of the request, compressed with zlib and sent with the matching Content-Encoding
    /// whatever the client's Accept-Encoding says.
    private static func compressed(_ request: DemoRequest, format: Zlib.Format) throws -> Response {
        let flag = format == .gzip ? "gzipped" : "deflated"
        let headers = request.orderedHeaders.map { JSON.array([.string($0.0), .string($0.1)]) }
        let document: JSON = [flag: true, "method": .string(request.method), "headers": .array(headers)]
        let body = try Zlib.compress(document.serializedBytes, format: format)
        var fields = HTTPFields()
        fields[.contentEncoding] = format == .gzip ? "gzip" : "deflate"
        return Reply.bytes(body, contentType: "application/json", headers: fields)
    }

    /// The sample property list, XML by default, binary with `?format=binary`.
    private static func plist(_ request: DemoRequest) throws -> Response {
        let value: [String: Any] = [
            "name": "apitest", "version": 1, "tags": ["a", "b"], "nested": ["ok": true],
        ]
        let binary: Bool
        switch request.query("format") ?? "xml" {
        case "xml": binary = false
        case "binary": binary = true
        case let other: throw DemoError.badRequest("unknown plist format '\(other)'; use xml or binary")
        }
        let data = try PropertyListSerialization.data(
            fromPropertyList: value, format: binary ? .binary : .xml, options: 0
        )
        return Reply.bytes([UInt8](data), contentType: binary ? "application/x-bplist" : "application/x-plist")
    }

    /// `?width=&height=` in 1...4096.
    private static func dimensions(_ request: DemoRequest, default size: Int) throws(DemoError) -> (Int, Int) {
        let range = 1...ImageEncoder.maximumDimension
        return (
            try request.intQuery("width", default: size, in: range),
            try request.intQuery("height", default: size, in: range)
        )
    }
}

public import Foundation

/// A `multipart/form-data` body (RFC 7578) built from text fields, inline data and files: AFNetworking's
/// AFStreamingMultipartFormData.
///
/// File parts are not read when the form is built: their sizes are taken when the request starts (so the exact
/// `Content-Length` is known) and their bytes are streamed from disk while it is sent.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append(value: "at the beach", name: "caption")
/// form.append(fileAt: "/tmp/avatar.png", name: "file")
/// let request = HTTPRequest(method: "POST", url: url, body: .multipart(form))
/// ```
public struct MultipartFormData: Sendable, Equatable {
    /// One part of the form.
    public struct Part: Sendable, Equatable {
        /// Where a part's content comes from.
        public enum Content: Sendable, Equatable {
            case data(Data)
            case file(path: String)
        }

        public var name: String
        public var filename: String?
        public var contentType: String?
        /// More header fields for the part, after `Content-Disposition` and `Content-Type`.
        public var headers: HTTPHeaders
        public var content: Content

        public init(
            name: String, filename: String? = nil, contentType: String? = nil, headers: HTTPHeaders = [:],
            content: Content
        ) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.headers = headers
            self.content = content
        }
    }

    /// The delimiter between parts: random per form, so it cannot be predicted from the content.
    public let boundary: String
    public private(set) var parts: [Part] = []

    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=...`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A boundary of 32 random letters and digits after an `apitest-` prefix.
    public static func randomBoundary() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        // Four draws of 8 bytes (each draw is a getrandom call), a letter per byte. 256 is not a multiple of 62, so
        // the first 8 letters come up 5 times in 256 rather than 4; the boundary still holds ~190 random bits.
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
        return "apitest-" + String(bytes.map { alphabet[Int($0) % alphabet.count] })
    }

    // MARK: - Building

    public mutating func append(_ part: Part) {
        parts.append(part)
    }

    /// A text field.
    public mutating func append(value: String, name: String, headers: HTTPHeaders = [:]) {
        parts.append(Part(name: name, headers: headers, content: .data(Data(value.utf8))))
    }

    /// Inline bytes sent as a file; the content type defaults to the one of the filename's extension.
    public mutating func append(
        data: Data, name: String, filename: String?, contentType: String? = nil, headers: HTTPHeaders = [:]
    ) {
        let type = contentType ?? filename.map(MIMEType.forPath) ?? MIMEType.octetStream
        parts.append(Part(name: name, filename: filename, contentType: type, headers: headers, content: .data(data)))
    }

    /// A file streamed from disk; the filename defaults to the path's last component and the content type to the
    /// one of its extension.
    public mutating func append(
        fileAt path: String, name: String, filename: String? = nil, contentType: String? = nil,
        headers: HTTPHeaders = [:]
    ) {
        let shownName = filename ?? (path as NSString).lastPathComponent
        parts.append(
            Part(
                name: name, filename: shownName, contentType: contentType ?? MIMEType.forPath(shownName),
                headers: headers, content: .file(path: path)))
    }

    /// One line per part for reports: `name="caption" (12 bytes)`, `name="file"; filename="a.png" image/png
    /// <file /tmp/a.png>`.
    public var summary: String {
        parts.map { part in
            var line = "name=\"\(part.name)\""
            if let filename = part.filename { line += "; filename=\"\(filename)\"" }
            if let type = part.contentType { line += " \(type)" }
            switch part.content {
            case .data(let data):
                if part.filename == nil, let text = String(data: data, encoding: .utf8), text.count <= 200 {
                    line += ": \(text)"
                } else {
                    line += " (\(data.count) bytes)"
                }
            case .file(let path): line += " <file \(path)>"
            }
            return line
        }.joined(separator: "\n")
    }

    // MARK: - Encoding

    /// The body as segments for `BodyStream`: part headers in memory, file contents by path and size.
    func segments() throws(HTTPError) -> [BodyStream.Segment] {
        var segments: [BodyStream.Segment] = []
        var pending = Data()
        for part in parts {
            pending.append(contentsOf: Self.header(of: part, boundary: boundary).utf8)
            switch part.content {
            case .data(let data):
                pending.append(data)
            case .file(let path):
                let size = try BodyStream.fileSize(path)
                segments.append(.bytes(pending))
                pending = Data()
                if size > 0 { segments.append(.file(path: path, size: size)) }
            }
            pending.append(contentsOf: "\r\n".utf8)
        }
        pending.append(contentsOf: "--\(boundary)--\r\n".utf8)
        segments.append(.bytes(pending))
        return segments
    }

    /// The delimiter line and header fields that open `part`.
    static func header(of part: Part, boundary: String) -> String {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escape(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(escape(filename))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(contentType)\r\n" }
        for field in part.headers { text += "\(field.name): \(field.value)\r\n" }
        return text + "\r\n"
    }

    /// Escapes a name or filename as the WHATWG multipart/form-data encoding does: `"` as `%22`, CR as `%0D`, LF
    /// as `%0A`; other characters, non-ASCII ones included, are sent as UTF-8 (RFC 7578 §4.2 rules out
    /// `filename*`). The one quoting of a part's name: `apitest fuzz`'s multipart bodies use it too.
    package static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

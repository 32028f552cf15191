import Hummingbird

// MARK: - Reply

/// Response builders shared by every endpoint.
enum Reply {
    /// A JSON body with `Content-Type: application/json`.
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        bytes(value.serializedBytes, contentType: "application/json", status: status, headers: headers)
    }

    /// `{"error": message}` with the given status.
    static func error(_ status: HTTPResponse.Status, _ message: String, extra: [(String, JSON)] = []) -> Response {
        json(.object([("error", .string(message))] + extra), status: status)
    }

    /// A body of bytes with the given content type and an exact Content-Length.
    static func bytes(
        _ bytes: [UInt8], contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// UTF-8 text with the given content type.
    static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        bytes(Array(text.utf8), contentType: contentType, status: status)
    }

    /// No body at all (`Content-Length: 0` unless the status forbids a body).
    static func empty(status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        if status.code != 204, status.code != 304 { fields[.contentLength] = "0" }
        return Response(status: status, headers: fields, body: ResponseBody())
    }

    /// The status for a validated code in 100...599 with its usual reason phrase.
    static func status(_ code: Int) -> HTTPResponse.Status {
        HTTPResponse.Status(code: code, reasonPhrase: reasonPhrases[code] ?? "")
    }

    private static let reasonPhrases: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently",
        302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 418: "I'm a teapot", 422: "Unprocessable Content", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        505: "HTTP Version Not Supported", 511: "Network Authentication Required",
    ]
}

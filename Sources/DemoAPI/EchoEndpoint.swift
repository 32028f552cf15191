import Foundation
import Hummingbird

// MARK: - EchoEndpoint

/// `ANY /echo` and `ANY /echo/**`: describes the request exactly as received.
enum EchoEndpoint {
    /// Largest body /echo accepts (larger ones get 413).
    static let maximumBodySize = 256 << 20
    /// Text parts up to this size get their `value` in the multipart description.
    static let maximumPartValueSize = 64 << 10

    static func routes() -> [Route] {
        [Route(nil, "/echo/**") { request in try await echo(request) }]
    }

    static func echo(_ request: DemoRequest) async throws -> Response {
        let body = try await request.readBody(limit: maximumBodySize)
        let contentType = request.header(.contentType).map { HeaderValue(parsing: $0, lowercaseValue: true) }
        let mediaType = contentType?.value ?? ""

        var members: [(String, JSON)] = [
            ("method", .string(request.method)),
            ("path", .string(request.rawPath)),
            ("query", .string(request.rawQuery)),
            ("args", FormEncoding.grouped(request.queryPairs)),
            ("headers", .array(request.orderedHeaders.map { JSON.array([.string($0.0), .string($0.1)]) })),
        ]
        let text = String(validating: body, as: UTF8.self)
        members.append(("body", .string(text)))
        if text == nil { members.append(("bodyBase64", .string(Data(body).base64EncodedString()))) }
        members.append(("bodySize", .int(body.count)))
        members.append(("bodySHA256", .string(SHA256.hexDigest(body))))

        var json = JSON.null
        if mediaType == "application/json" || mediaType.hasSuffix("+json"), let parsed = try? JSONParser.parse(body) {
            json = parsed
        }
        members.append(("json", json))

        var form = JSON.null
        if mediaType == "application/x-www-form-urlencoded" {
            form = FormEncoding.grouped(FormEncoding.pairs(String(decoding: body, as: UTF8.self)))
        }
        members.append(("form", form))

        var multipart = JSON.null
        if mediaType == "multipart/form-data" {
            guard let boundary = contentType?.parameter("boundary"), !boundary.isEmpty else {
                throw DemoError.badRequest("multipart/form-data without a boundary parameter")
            }
            do {
                multipart = .array(try MultipartParser.parse(body, boundary: boundary).map { describe($0, in: body) })
            } catch {
                throw DemoError.badRequest("malformed multipart body: \(error)")
            }
        }
        members.append(("multipart", multipart))
        return Reply.json(.object(members))
    }

    /// `{"name", "filename", "contentType", "headers", "size", "sha256", "value"}` for one part; `value` is the
    /// text of a non-file part (null for files, binary or large parts).
    private static func describe(_ part: MultipartPart, in body: [UInt8]) -> JSON {
        let disposition = part.disposition
        let filename = disposition?.parameter("filename")
        let content = body[part.content]
        var value = JSON.null
        if filename == nil, content.count <= maximumPartValueSize, let text = String(validating: content, as: UTF8.self)
        {
            value = .string(text)
        }
        return .object([
            ("name", .string(disposition?.parameter("name"))),
            ("filename", .string(filename)),
            ("contentType", .string(part.header("Content-Type"))),
            ("headers", .array(part.headers.map { JSON.array([.string($0.name), .string($0.value)]) })),
            ("size", .int(content.count)),
            ("sha256", .string(SHA256.hexDigest(content))),
            ("value", value),
        ])
    }
}

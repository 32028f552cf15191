import Foundation
import HTTPTypes
import Hummingbird

// MARK: - AuthEndpoints

/// Client state and credentials: cookies, basic and bearer authentication, ETags.
enum AuthEndpoints {
    static func routes() -> [Route] {
        [
            Route(["GET"], "/cookies") { request in
                Reply.json(["cookies": .object(cookies(request).map { ($0.0, JSON.string($0.1)) })])
            },
            Route(["GET"], "/cookies/set") { request in try setCookies(request) },
            Route(["GET"], "/cookies/delete") { request in try deleteCookies(request) },
            Route(["GET"], "/basic-auth/{user}/{pass}") { request in basicAuth(request) },
            Route(["GET"], "/bearer") { request in
                let authorization = request.header(.authorization) ?? ""
                let parts = authorization.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "bearer" {
                    let token = parts[1].trimmingHTTPWhitespace()
                    if !token.isEmpty { return Reply.json(["token": .string(token)]) }
                }
                var headers = HTTPFields()
                headers[.wwwAuthenticate] = "Bearer realm=\"apitest-demo\""
                return Reply.json(
                    ["authenticated": false, "error": "missing or malformed bearer token"],
                    status: .unauthorized, headers: headers
                )
            },
            Route(["GET"], "/etag/{etag}") { request in etag(request) },
        ]
    }

    // MARK: - Cookies

    /// The request's cookies in order (every `Cookie` header, `name=value` pairs separated by `;`).
    static func cookies(_ request: DemoRequest) -> [(String, String)] {
        var result: [(String, String)] = []
        for header in request.headers(.cookie) {
            for piece in header.split(separator: ";") {
                let pair = piece.trimmingHTTPWhitespace()
                guard !pair.isEmpty else { continue }
                if let equals = pair.firstIndex(of: "=") {
                    result.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
                } else {
                    result.append((pair, ""))
                }
            }
        }
        return result
    }

    private static func setCookies(_ request: DemoRequest) throws(DemoError) -> Response {
        var headers = HTTPFields()
        var set: [(String, JSON)] = []
        for (name, rawValue) in request.queryPairs {
            try validateCookieName(name)
            let value = cookieValue(rawValue)
            headers.append(HTTPField(name: .setCookie, value: "\(name)=\(value); Path=/"))
            set.append((name, .string(value)))
        }
        return Reply.json(["set": .object(set)], headers: headers)
    }

    private static func deleteCookies(_ request: DemoRequest) throws(DemoError) -> Response {
        var headers = HTTPFields()
        var deleted: [JSON] = []
        for (name, _) in request.queryPairs {
            try validateCookieName(name)
            headers.append(
                HTTPField(
                    name: .setCookie, value: "\(name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"
                )
            )
            deleted.append(.string(name))
        }
        return Reply.json(["deleted": .array(deleted)], headers: headers)
    }

    /// Cookie names are RFC 9110 tokens.
    private static func validateCookieName(_ name: String) throws(DemoError) {
        let allowed = Set(
            "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
            throw .badRequest("invalid cookie name '\(name)'")
        }
    }

    /// The value with every byte outside RFC 6265's cookie-octet percent-encoded.
    private static func cookieValue(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in value.utf8 {
            let plain =
                byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte)
                || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
            if plain && byte != UInt8(ascii: "%") {
                out.append(byte)
            } else {
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Basic authentication

    private static func basicAuth(_ request: DemoRequest) -> Response {
        let user = request.parameters["user"] ?? ""
        let password = request.parameters["pass"] ?? ""
        if let authorization = request.header(.authorization) {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic",
                let data = Data(base64Encoded: parts[1].trimmingHTTPWhitespace()),
                let credentials = String(data: data, encoding: .utf8),
                credentials == "\(user):\(password)"
            {
                return Reply.json(["authenticated": true, "user": .string(user)])
            }
        }
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Basic realm=\"apitest-demo\""
        return Reply.json(["authenticated": false], status: .unauthorized, headers: headers)
    }

    // MARK: - ETag

    /// 304 when If-None-Match lists the tag (or `*`), else 200 with the ETag.
    private static func etag(_ request: DemoRequest) -> Response {
        let tag = request.parameters["etag"] ?? ""
        var headers = HTTPFields()
        headers[.eTag] = "\"\(tag)\""
        let candidates = request.headers(.ifNoneMatch).flatMap { $0.split(separator: ",") }.map { piece -> String in
            var candidate = piece.trimmingHTTPWhitespace()
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate.count >= 2, candidate.hasPrefix("\""), candidate.hasSuffix("\"") {
                candidate = String(candidate.dropFirst().dropLast())
            }
            return candidate
        }
        if candidates.contains("*") || candidates.contains(tag) {
            return Reply.empty(status: .notModified, headers: headers)
        }
        return Reply.json(["etag": .string(tag)], headers: headers)
    }
}

import APITestJSON
import APITestOpenAPI

/// A case as it goes on the wire, before the HTTP layer: method, the path and query under the base URL, headers
/// in order and the body's bytes.
package struct BuiltRequest: Sendable, Hashable {
    /// The method.
    package var method: String
    /// The path with its values and the query, percent-encoded (`/pets/1?limit=2`).
    package var pathAndQuery: String
    /// The headers, in order (parameters, then the body's `Content-Type`, then the command's `--header`s).
    package var headers: [Header]
    /// The body's bytes (empty for none).
    package var body: [UInt8]

    /// A header field.
    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String

        /// The field `name: value`.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The headers as the contract takes them.
    package var headerPairs: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
}

// MARK: - Building

extension FuzzCase {
    /// The request this case sends to `pathTemplate`, with `extraHeaders` (the command's `--header`s, credentials
    /// already removed when the case goes without them) after its own.
    package func build(pathTemplate: String, extraHeaders: [BuiltRequest.Header]) -> BuiltRequest {
        var path = pathOverride ?? pathTemplate
        var query: [String] = []
        var headers: [BuiltRequest.Header] = []
        var cookies: [String] = []
        for parameter in parameters {
            guard let value = parameter.value else {
                if parameter.location == .path, pathOverride == nil {
                    path = path.replacing("{\(parameter.name)}", with: "")
                }
                continue
            }
            switch parameter.location {
            case .path:
                guard pathOverride == nil else { continue }
                path = path.replacing("{\(parameter.name)}", with: ParameterText.path(parameter, value))
            case .query:
                query += ParameterText.query(parameter, value)
            case .header:
                headers.append(BuiltRequest.Header(parameter.name, ParameterText.header(parameter, value)))
            case .cookie:
                cookies.append(parameter.name + "=" + ParameterText.cookie(parameter, value))
            }
        }
        if !cookies.isEmpty { headers.append(BuiltRequest.Header("Cookie", cookies.joined(separator: "; "))) }
        var bytes: [UInt8] = []
        if let body {
            switch body.encoding {
            case .multipart:
                headers.append(
                    BuiltRequest.Header("Content-Type", body.mediaType + "; boundary=" + BodyText.boundary))
            default:
                headers.append(BuiltRequest.Header("Content-Type", body.mediaType))
            }
            switch body.encoding {
            case .json: bytes = JSONWriter.bytes(body.value)
            case .form: bytes = Array(ParameterText.form(body.value).utf8)
            case .multipart: bytes = Array(BodyText.multipart(body.value, fileParts: body.fileParts).utf8)
            case .xml(let root): bytes = Array(BodyText.xml(body.value, root: root).utf8)
            case .raw(let text): bytes = Array(text.utf8)
            }
        }
        headers += extraHeaders
        let pathAndQuery = query.isEmpty ? path : path + "?" + query.joined(separator: "&")
        return BuiltRequest(method: method, pathAndQuery: pathAndQuery, headers: headers, body: bytes)
    }
}

/// How parameter values are written as text, by their style (OpenAPI's Parameter Object, "Style Values").
enum ParameterText {
    /// A primitive value's text: a string as it is, a number as JSON writes it, `null` as nothing.
    static func primitive(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .integer, .double, .number: JSONWriter.string(value)
        case .array, .object: JSONWriter.string(value)
        }
    }

    /// `value` as a path segment (`simple`, `label`, `matrix`), percent-encoded.
    static func path(_ parameter: FuzzCase.Parameter, _ value: JSONValue) -> String {
        if parameter.contentType != nil { return PercentText.encode(JSONWriter.string(value), keeping: "") }
        let encode = { (text: String) in PercentText.encode(text, keeping: "") }
        let prefix: String
        let separator: String
        switch parameter.style {
        case "label":
            prefix = "."
            separator = parameter.explode ? "." : ","
        case "matrix":
            prefix = ";" + parameter.name + "="
            separator = parameter.explode ? ";\(parameter.name)=" : ","
        default:
            prefix = ""
            separator = ","
        }
        switch value {
        case .array(let items): return prefix + items.map { encode(primitive($0)) }.joined(separator: separator)
        case .object(let object):
            let pairs = object.map {
                parameter.explode
                    ? encode($0.key) + "=" + encode(primitive($0.value))
                    : encode($0.key) + "," + encode(primitive($0.value))
            }
            return prefix + pairs.joined(separator: parameter.explode ? separator : ",")
        default: return prefix + encode(primitive(value))
        }
    }

    /// `value` as query pairs (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`), percent-encoded.
    static func query(_ parameter: FuzzCase.Parameter, _ value: JSONValue) -> [String] {
        let name = PercentText.encode(parameter.name, keeping: "")
        let encode = { (text: String) in PercentText.encode(text, keeping: "") }
        if parameter.contentType != nil { return [name + "=" + encode(JSONWriter.string(value))] }
        switch value {
        case .array(let items):
            if parameter.explode { return items.map { name + "=" + encode(primitive($0)) } }
            let separator =
                parameter.style == "spaceDelimited" ? "%20" : parameter.style == "pipeDelimited" ? "%7C" : ","
            return [name + "=" + items.map { encode(primitive($0)) }.joined(separator: separator)]
        case .object(let object):
            if parameter.style == "deepObject" {
                return object.map { name + "%5B" + encode($0.key) + "%5D=" + encode(primitive($0.value)) }
            }
            if parameter.explode { return object.map { encode($0.key) + "=" + encode(primitive($0.value)) } }
            return [
                name + "=" + object.map { encode($0.key) + "," + encode(primitive($0.value)) }.joined(separator: ",")
            ]
        default:
            return [name + "=" + encode(primitive(value))]
        }
    }

    /// `value` as a header's value (`simple`).
    static func header(_ parameter: FuzzCase.Parameter, _ value: JSONValue) -> String {
        if parameter.contentType != nil { return JSONWriter.string(value) }
        let text: String
        switch value {
        case .array(let items): text = items.map(primitive).joined(separator: ",")
        case .object(let object):
            text = object.map {
                parameter.explode ? "\($0.key)=\(primitive($0.value))" : "\($0.key),\(primitive($0.value))"
            }
            .joined(separator: ",")
        default: text = primitive(value)
        }
        // A header value holds no line break nor control character: such bytes are percent-encoded.
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "%" : Character($0) })
    }

    /// `value` as a cookie's value (`form`), percent-encoded.
    static func cookie(_ parameter: FuzzCase.Parameter, _ value: JSONValue) -> String {
        switch value {
        case .array(let items): items.map { PercentText.encode(primitive($0), keeping: "") }.joined(separator: ",")
        default: PercentText.encode(primitive(value), keeping: "")
        }
    }

    /// An object as an `application/x-www-form-urlencoded` body (arrays repeat their name, nested values as JSON).
    static func form(_ value: JSONValue) -> String {
        guard case .object(let object) = value else { return PercentText.encode(primitive(value), keeping: "") }
        var pairs: [String] = []
        for (key, member) in object {
            let name = PercentText.encode(key, keeping: "")
            if case .array(let items) = member {
                pairs += items.map { name + "=" + PercentText.encode(primitive($0), keeping: "") }
            } else {
                pairs.append(name + "=" + PercentText.encode(primitive(member), keeping: ""))
            }
        }
        return pairs.joined(separator: "&")
    }
}

/// Percent-encoding of URL parts (RFC 3986): every byte but the unreserved characters.
enum PercentText {
    /// `text` with every byte but `A-Z a-z 0-9 - . _ ~` and those of `keeping` written `%XX`.
    static func encode(_ text: String, keeping: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let kept = Set(keeping.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved || kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

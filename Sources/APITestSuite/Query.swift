package import APITestJSON
import APITestSupport
import Foundation

/// What an assertion or a capture reads from a response: the status, a header, a cookie, the body or a part of it,
/// or a fact of the transfer.
package enum Query: Sendable, Hashable, CustomStringConvertible {
    /// The status code, a number.
    case status
    /// A response header by name (case-insensitive); a repeated header gives every value.
    case header(String)
    /// A cookie the response sets (`Set-Cookie`), its value or one attribute.
    case cookie(name: String, attribute: CookieAttribute)
    /// The body as text, decoded with the charset of `Content-Type`.
    case body
    /// A JSONPath (RFC 9535) query on the decoded body (JSON or a property list), compiled when the suite loads.
    case jsonpath(JSONPath)
    /// An XPath 1.0 expression on the body parsed as XML.
    case xpath(String)
    /// A regular expression on the body text; the value is the capture group `group` (the whole match for 0) of
    /// the first match.
    case regex(RegularExpression, group: Int)
    /// The whole transfer's duration in milliseconds.
    case duration
    /// The body's size in bytes (after content decoding).
    case bodySize
    /// The lower-case hex SHA-256 of the body.
    case sha256
    /// The lower-case hex MD5 of the body.
    case md5
    /// The URL of the final response, after redirects.
    case url
    /// The number of redirects followed.
    case redirects
    /// A fact of the server's leaf certificate.
    case certificate(CertificateField)
    /// A fact of an image body, read from its header.
    case image(ImageField)
    /// A part of an event stream (`expect.events`, a capture with `event:`). Indirect: a `StreamQuery` (48 bytes)
    /// inline would make every query, and so every check of a suite, that large.
    indirect case stream(StreamQuery)

    /// The names of the queries written `query: NAME`, which take no argument.
    package enum PlainName: String, Sendable, CaseIterable {
        case status, body, duration, bodySize, sha256, md5, url, redirects

        /// The query the name stands for.
        package var query: Query {
            switch self {
            case .status: .status
            case .body: .body
            case .duration: .duration
            case .bodySize: .bodySize
            case .sha256: .sha256
            case .md5: .md5
            case .url: .url
            case .redirects: .redirects
            }
        }
    }

    /// The queries written `query: NAME`, which take no argument.
    package static let plainQueries: [String: Query] = Dictionary(
        uniqueKeysWithValues: PlainName.allCases.map { ($0.rawValue, $0.query) })

    /// The general form's query keys that take an argument.
    package static let argumentKeys = QueryParser.Key.queries.dropFirst().map(\.rawValue)

    /// How the query is named in messages: `status`, `header Location`, `$.users[0]`, `cookie session[Max-Age]`.
    package var description: String {
        switch self {
        case .status: "status"
        case .header(let name): "header \(name)"
        case .cookie(let name, let attribute):
            attribute == .value ? "cookie \(name)" : "cookie \(name)[\(attribute.rawValue)]"
        case .body: "body"
        case .jsonpath(let path): path.expression
        case .xpath(let expression): "xpath \(expression)"
        case .regex(let regex, let group):
            group == 1 ? "regex /\(regex.pattern)/" : "regex /\(regex.pattern)/ group \(group)"
        case .duration: "duration"
        case .bodySize: "bodySize"
        case .sha256: "sha256"
        case .md5: "md5"
        case .url: "url"
        case .redirects: "redirects"
        case .certificate(let field): "certificate \(field.rawValue)"
        case .image(let field): "image \(field.rawValue)"
        case .stream(let query): query.description
        }
    }

}

/// Which part of a cookie a `cookie` query reads; the raw values are the `Set-Cookie` attribute names.
package enum CookieAttribute: String, Sendable, Hashable, CaseIterable {
    case value = "Value"
    case expires = "Expires"
    case maxAge = "Max-Age"
    case domain = "Domain"
    case path = "Path"
    case secure = "Secure"
    case httpOnly = "HttpOnly"
    case sameSite = "SameSite"

    /// The attribute named `name`, matched case-insensitively (`max-age`, `Max-Age`, `maxAge`).
    package init?(named name: String) {
        let folded = name.lowercased().replacingOccurrences(of: "-", with: "")
        guard
            let match = Self.allCases.first(where: {
                $0.rawValue.lowercased().replacingOccurrences(of: "-", with: "") == folded
            })
        else { return nil }
        self = match
    }
}

/// A fact of the leaf certificate the server presented.
package enum CertificateField: String, Sendable, Hashable, CaseIterable {
    case subject
    case issuer
    /// The start of validity, as an ISO-8601 date-time.
    case notBefore
    /// The end of validity, as an ISO-8601 date-time.
    case notAfter
    /// Upper-case hex.
    case serialNumber
    /// A list like `["DNS:example.com", "IP:127.0.0.1"]`.
    case subjectAlternativeNames
}

/// A fact of an image body.
package enum ImageField: String, Sendable, Hashable, CaseIterable {
    /// `png`, `jpeg`, `gif`, `webp` or `bmp`.
    case format
    case width
    case height
}

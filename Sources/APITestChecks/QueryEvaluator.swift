import APITestHTTP
import APITestJSON
import APITestSuite
import Foundation

/// Reads the value a query names from a response.
final class QueryEvaluator: Sendable {
    /// What a query found.
    enum Found {
        /// One value, or nothing (`nil`): a missing header, a JSONPath that matched nothing.
        case one(JSONValue?)
        /// A header sent several times: a check holds when it holds for any value (all, for negative predicates).
        case each([JSONValue])
        /// A query that selects node lists (a non-singular JSONPath) matched nothing: absent for `exists`, an
        /// empty list for filters such as `count`.
        case noNodes
    }

    // MARK: - Queries

    func value(of query: Query, in body: inout ResponseBody) -> Result<Found, CheckProblem> {
        let response = body.response
        switch query {
        case .status:
            return .success(.one(.integer(Int64(response.statusCode))))
        case .header(let name):
            let values = response.headers.values(for: name)
            switch values.count {
            case 0: return .success(.one(nil))
            case 1: return .success(.one(.string(values[0])))
            default: return .success(.each(values.map(JSONValue.string)))
            }
        case .cookie(let name, let attribute):
            return .success(.one(Self.cookie(name, attribute, in: response)))
        case .body:
            return body.text().map { .one(.string($0)) }
        case .jsonpath(let path):
            // A singular path (most checks) selects one node at most: no list of nodes made for it.
            if path.isSingular { return body.singularValue(path).map(Found.one) }
            return body.document().map { document in
                let nodes = document.query(path)
                return nodes.isEmpty ? .noNodes : .one(.array(nodes))
            }
        case .xpath(let expression):
            return body.xml().flatMap { document in Self.xpath(expression, in: document) }
        case .regex(let regex, let group):
            return body.text().map { text in
                .one(regex.firstMatch(in: text, group: group).map(JSONValue.string))
            }
        case .duration:
            let total = response.timings.total.components
            let milliseconds = Double(total.seconds) * 1000 + Double(total.attoseconds) / 1e15
            return .success(.one(.double((milliseconds * 1000).rounded() / 1000)))
        case .bodySize:
            return .success(.one(.integer(response.bodySize)))
        case .sha256:
            return Self.digest(.sha256, of: response)
        case .md5:
            return Self.digest(.md5, of: response)
        case .url:
            return .success(.one(.string(response.effectiveURL)))
        case .redirects:
            return .success(.one(.integer(Int64(response.redirectCount))))
        case .certificate(let field):
            guard let leaf = response.peerCertificates.first else {
                return .failure(
                    CheckProblem(
                        "certificate \(field.rawValue): the response came over plain HTTP, without a certificate"))
            }
            return .success(.one(Self.fact(field, of: leaf)))
        case .stream(let query):
            return Self.stream(query, of: body.streamEvent)
        case .image(let field):
            return body.image().map { info in
                switch field {
                case .format: .one(.string(info.format))
                case .width: .one(.integer(Int64(info.width)))
                case .height: .one(.integer(Int64(info.height)))
                }
            }
        }
    }

    // MARK: - Sources

    /// Where the value of `query` comes from: JSONPath gives JSON values, and apitest's own measures (`status`,
    /// `duration`, `bodySize`, `redirects`, an image's size) are numbers; everything read from the body's or the
    /// headers' text is text.
    static func source(of query: Query) -> PredicateEvaluator.Source {
        switch query {
        case .jsonpath, .status, .duration, .bodySize, .redirects, .image: .json
        case .stream(.field(.event)), .stream(.field(.id)), .stream(.field(.data)): .text
        case .stream: .json
        case .header, .cookie, .body, .xpath, .regex, .sha256, .md5, .url, .certificate: .text
        }
    }

    /// Where a value comes from after `filters`: text taken out of text (`regex`, `replace`, `split`,
    /// `base64Decode`, `urlDecode`, `xpath`) is text, a `jsonpath` filter's result is JSON, and every other filter
    /// keeps the source of its input (`first` of JSON items is JSON, `lowercase` of a header is text).
    static func source(of query: Query, after filters: [Filter]) -> PredicateEvaluator.Source {
        var source = source(of: query)
        for filter in filters {
            switch filter {
            case .regex, .replace, .split, .base64Decode, .urlDecode, .xpath: source = .text
            case .jsonpath: source = .json
            default: break
            }
        }
        return source
    }

    // MARK: - Digests

    /// The digest of the whole body: hashed as it streamed, or from the body kept in memory.
    private static func digest(
        _ algorithm: BodyDigest.Algorithm, of response: HTTPResponse
    ) -> Result<Found, CheckProblem> {
        guard let digest = response.digest(algorithm) else {
            return .failure(CheckProblem("the body was not kept and its \(algorithm.rawValue) was not computed"))
        }
        return .success(.one(.string(digest)))
    }

    // MARK: - Certificates

    /// A fact of a certificate: names as one-line text, dates as ISO-8601 date-times (UTC), the serial number
    /// in upper-case hex, subject alternative names as a list.
    static func fact(_ field: CertificateField, of certificate: CertificateInfo) -> JSONValue {
        switch field {
        case .subject: return .string(certificate.subject)
        case .issuer: return .string(certificate.issuer)
        case .notBefore: return .string(UTCTimestamp(certificate.notBefore).secondsText)
        case .notAfter: return .string(UTCTimestamp(certificate.notAfter).secondsText)
        case .serialNumber: return .string(certificate.serialNumber)
        case .subjectAlternativeNames: return .array(certificate.subjectAlternativeNames.map(JSONValue.string))
        }
    }

    // MARK: - XPath

    /// An XPath result as a value: a number, string or boolean as such; a node-set of one node as its string
    /// value, of several as the list of their string values, of none as nothing.
    static func xpath(_ expression: String, in document: XPathDocument) -> Result<Found, CheckProblem> {
        do {
            switch try document.evaluate(expression) {
            case .nodeSet(let nodes):
                switch nodes.count {
                case 0: return .success(.noNodes)
                case 1: return .success(.one(.string(nodes[0].stringValue)))
                default: return .success(.one(.array(nodes.map { .string($0.stringValue) })))
                }
            case .string(let text): return .success(.one(.string(text)))
            case .number(let number):
                if number.isFinite, number.rounded() == number, abs(number) < 9e15 {
                    return .success(.one(.integer(Int64(number))))
                }
                return .success(.one(.double(number)))
            case .boolean(let flag): return .success(.one(.bool(flag)))
            }
        } catch {
            return .failure(CheckProblem("\(error)"))
        }
    }

    // MARK: - Cookies

    /// The value or attribute of the last cookie called `name` that the response sets; flags are booleans,
    /// `Max-Age` a number.
    private static func cookie(_ name: String, _ attribute: CookieAttribute, in response: HTTPResponse) -> JSONValue? {
        guard let cookie = response.headers.setCookies.last(where: { $0.name == name }) else { return nil }
        switch attribute {
        case .value: return .string(cookie.value)
        case .secure, .httpOnly: return .bool(cookie.attribute(attribute.rawValue) != nil)
        case .maxAge:
            guard let text = cookie.attribute(attribute.rawValue) else { return nil }
            return Int64(text).map(JSONValue.integer) ?? .string(text)
        case .expires, .domain, .path, .sameSite:
            return cookie.attribute(attribute.rawValue).map(JSONValue.string)
        }
    }

}

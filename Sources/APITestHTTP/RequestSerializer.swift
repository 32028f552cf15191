public import APITestJSON
public import Foundation

/// Builds `HTTPRequest`s from parts with AFHTTPRequestSerializer's semantics: base-URL resolution, nested query
/// parameters, form / JSON / raw / file bodies, default headers and basic auth.
public struct RequestSerializer: Sendable {
    /// A request body before serialization.
    public enum Body: Sendable, Equatable {
        case none
        /// Serialized as compact JSON, `Content-Type: application/json`.
        case json(JSONValue)
        /// Serialized like a query string, `Content-Type: application/x-www-form-urlencoded`.
        case form(JSONValue)
        /// Bytes sent as they are.
        case raw(Data, contentType: String?)
        /// A file streamed from disk while the request is sent.
        case file(path: String, contentType: String?)
        /// A `multipart/form-data` body, `Content-Type` with its boundary.
        case multipart(MultipartFormData)
        /// A property list, as XML (`application/x-plist`) or binary (`application/x-bplist`): AFNetworking's
        /// AFPropertyListRequestSerializer. Property lists have no null.
        case plist(JSONValue, format: PropertyListFormat)

        /// The encodings of a property-list body.
        public enum PropertyListFormat: Sendable, Equatable {
            case xml
            case binary
        }
    }

    /// The URL relative references resolve against; its path gets a terminal slash.
    public var baseURL: String? {
        didSet { resolvedBase = baseURL.map(URLResolver.Base.init) }
    }
    /// `baseURL` as the resolver reads it, its facts found once, not for every request.
    private var resolvedBase: URLResolver.Base?
    /// Headers every request gets unless it sets the same field itself (`User-Agent` by default).
    public var defaultHeaders: HTTPHeaders

    public init(baseURL: String? = nil, defaultHeaders: HTTPHeaders = [:]) {
        self.baseURL = baseURL
        self.resolvedBase = baseURL.map(URLResolver.Base.init)
        self.defaultHeaders = defaultHeaders
    }

    /// Builds the request for `method` and `url`.
    ///
    /// Header precedence: `defaultHeaders`, then `headers` (which replace defaults of the same name), then the
    /// body's `Content-Type` and basic auth's `Authorization` unless `headers` set those fields.
    public func request(
        method: String = "GET",
        url: String,
        query: JSONValue? = nil,
        headers: HTTPHeaders = [:],
        body: Body = .none,
        basicAuth: (username: String, password: String)? = nil
    ) throws(HTTPError) -> HTTPRequest {
        var resolved = try URLResolver.resolve(url, againstBase: resolvedBase)
        if let query {
            resolved = URLResolver.appendingQuery(QueryStringSerializer.string(query), to: resolved)
        }
        var allHeaders = defaultHeaders
        for field in headers where allHeaders.contains(field.name) {
            allHeaders.remove(name: field.name)
        }
        for field in headers { allHeaders.add(name: field.name, value: field.value) }

        let (requestBody, contentType) = try Self.serialize(body)
        if let contentType, !headers.contains("Content-Type") {
            allHeaders.set(name: "Content-Type", value: contentType)
        }
        if let basicAuth, !headers.contains("Authorization") {
            allHeaders.set(
                name: "Authorization", value: Self.basicAuthorization(basicAuth.username, basicAuth.password))
        }
        return HTTPRequest(method: Self.uppercased(method), url: resolved, headers: allHeaders, body: requestBody)
    }

    /// `method.uppercased()`: the method itself when it is ASCII without small letters (`GET`), as it usually is,
    /// without making another `String`.
    static func uppercased(_ method: String) -> String {
        let upper = method.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        }
        return upper == true ? method : method.uppercased()
    }

    /// The body bytes (or file) and the content type they imply.
    public static func serialize(_ body: Body) throws(HTTPError) -> (HTTPRequest.Body, String?) {
        switch body {
        case .none:
            return (.none, nil)
        case .json(let value):
            return (.data(Data(JSONWriter.bytes(value))), "application/json")
        case .form(let value):
            return (.data(Data(QueryStringSerializer.string(value).utf8)), "application/x-www-form-urlencoded")
        case .raw(let data, let contentType):
            return (.data(data), contentType)
        case .file(let path, let contentType):
            return (.file(path: path), contentType)
        case .multipart(let form):
            return (.multipart(form), form.contentType)
        case .plist(let value, let format):
            let data = try PropertyListBody.encode(value, format: format)
            return (.data(data), format == .binary ? "application/x-bplist" : "application/x-plist")
        }
    }

    /// `Basic <base64(username:password)>`, as RFC 7617 defines it (UTF-8 credentials).
    public static func basicAuthorization(_ username: String, _ password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}

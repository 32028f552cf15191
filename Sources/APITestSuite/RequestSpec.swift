import APITestSupport

/// The request of one step, as written: templates are rendered by the runner.
public struct RequestSpec: Sendable, Hashable {
    /// An HTTP method token, upper-cased.
    public var method: String
    /// Absolute, or relative to the suite's `baseURL`.
    public var url: Template
    /// Query parameters (an object; values may nest).
    public var query: TemplateValue?
    public var headers: [HeaderSpec]
    public var basicAuth: BasicAuthSpec?
    public var body: BodySpec?
    /// A content type for `body`/`bodyFile`.
    public var contentType: Template?
    public var timeout: Duration?
    public var followRedirects: Bool?
    public var maxRedirects: Int?
    public var location: SourceLocation

    public init(
        method: String = "GET", url: Template, query: TemplateValue? = nil, headers: [HeaderSpec] = [],
        basicAuth: BasicAuthSpec? = nil, body: BodySpec? = nil, contentType: Template? = nil,
        timeout: Duration? = nil, followRedirects: Bool? = nil, maxRedirects: Int? = nil, location: SourceLocation
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.basicAuth = basicAuth
        self.body = body
        self.contentType = contentType
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.location = location
    }
}

/// A request header whose value is a template.
public struct HeaderSpec: Sendable, Hashable {
    public var name: String
    public var value: Template
    public var location: SourceLocation

    public init(name: String, value: Template, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// HTTP basic authentication credentials.
public struct BasicAuthSpec: Sendable, Hashable {
    public var username: Template
    public var password: Template

    public init(username: Template, password: Template) {
        self.username = username
        self.password = password
    }
}

/// A request body: at most one per request.
public enum BodySpec: Sendable, Hashable {
    /// `json:`: any value, sent as JSON.
    case json(TemplateValue)
    /// `form:`: a map sent as `application/x-www-form-urlencoded`.
    case form(TemplateValue)
    /// `body:`: raw text.
    case raw(Template)
    /// `bodyFile:`: a file's bytes; the path was checked at load time to be a readable regular file.
    case file(absolutePath: String)
}

/// Request settings that apply to every request of a suite unless the request sets its own.
public struct RequestDefaults: Sendable, Hashable {
    /// Headers sent with every request; a request header of the same name (case-insensitive) replaces one.
    public var headers: [HeaderSpec]
    public var timeout: Duration?
    public var followRedirects: Bool
    public var maxRedirects: Int?

    public init(
        headers: [HeaderSpec] = [], timeout: Duration? = nil, followRedirects: Bool = true, maxRedirects: Int? = nil
    ) {
        self.headers = headers
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
    }
}

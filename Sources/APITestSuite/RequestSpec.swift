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

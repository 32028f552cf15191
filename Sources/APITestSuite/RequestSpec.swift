package import APITestSupport

/// The request of one step, as written: templates are rendered by the runner. The settings most requests leave out
/// are `@Boxed`, so that a request without them stays small.
package struct RequestSpec: Sendable, Hashable {
    /// An HTTP method token, upper-cased.
    package var method: String
    /// Absolute, or relative to the suite's `baseURL`.
    package var url: Template
    /// Query parameters (an object; values may nest).
    package var query: TemplateValue?
    package var headers: [HeaderSpec]
    /// `auth:` (or `basicAuth:`, stored as `auth.basic`); replaces `defaults.auth` for this request.
    @Boxed package var auth: AuthSpec?
    /// `resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy`, `noProxy` set on this request.
    @Boxed package var transport: TransportSpec?
    @Boxed package var body: BodySpec?
    /// A content type for `body`/`bodyFile`.
    @Boxed package var contentType: Template?
    @Boxed package var timeout: Duration?
    @Boxed package var maxRedirects: Int?
    package var location: SourceLocation
    // The one-byte fields last, together: between the references each took a word of padding.
    package var followRedirects: Bool?
    /// `compressed`: whether to ask for a compressed response; nil for the suite's default.
    package var compressed: Bool?
    /// Whether the body (or, for GET, the query) is a GraphQL operation (`graphql:`): its errors fail the step.
    package var isGraphQL = false

    package init(
        method: String = "GET", url: Template, query: TemplateValue? = nil, headers: [HeaderSpec] = [],
        auth: AuthSpec? = nil, body: BodySpec? = nil, contentType: Template? = nil,
        timeout: Duration? = nil, followRedirects: Bool? = nil, maxRedirects: Int? = nil, location: SourceLocation
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.auth = auth
        self.body = body
        self.contentType = contentType
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.location = location
    }

    /// Whether `auth` is set, known without copying it out of its box.
    package var hasAuth: Bool { _auth.isSet }
    /// Whether `transport` is set, known without copying it out of its box.
    package var hasTransport: Bool { _transport.isSet }
}

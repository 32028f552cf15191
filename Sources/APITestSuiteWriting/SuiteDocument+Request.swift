package import APITestJSON

// MARK: - Requests

extension SuiteDocument {
    /// The request of a test, in the terms of the suite format's `request` (docs/suite-format.md "Request").
    /// Strings may hold placeholders (`{{ env.TOKEN }}`, `{{ token }}`); file paths are as written into the suite
    /// (relative to its folder, or absolute).
    package struct Request: Sendable {
        /// `method`, upper case.
        package var method: String
        /// `url`: absolute, or relative to the suite's `baseURL`. A query written in it is sent as written.
        package var url: String
        /// `query`: parameters the runner serializes (sorted, RFC 3986 escaped); empty when the URL carries its query.
        package var query: [(name: String, value: String)] = []
        /// `headers`, in the order they are sent. A name appears once (the suite format's headers are a map).
        package var headers: [Header] = []
        /// The body, at most one.
        package var body: Body?
        /// `basicAuth`.
        package var basicAuth: (username: String, password: String)?
        /// `auth`: the other kinds of authentication (bearer, Digest, NTLM, AWS Signature Version 4, netrc).
        package var auth: Auth?
        /// `timeout`, in seconds.
        package var timeout: Double?
        /// `followRedirects`.
        package var followRedirects: Bool?
        /// `maxRedirects`.
        package var maxRedirects: Int?
        /// `compressed`: whether the request asks for a compressed response (`Accept-Encoding`); nil: the default.
        package var compressed: Bool?
        /// `resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy`, `noProxy`.
        package var transport = Transport()

        /// A `method` request to `url`.
        package init(method: String = "GET", url: String) {
            self.method = method
            self.url = url
        }
    }

    /// The body kinds of the suite format.
    package enum Body: Sendable {
        /// `json`: a JSON value (sent compact, `Content-Type: application/json`).
        case json(JSONValue)
        /// `form`: fields sent as `application/x-www-form-urlencoded`, by the runner's serializer (values are
        /// scalars: text, numbers, booleans).
        case form([(name: String, value: JSONValue)])
        /// `body`: text sent as it is, with `contentType` when given.
        case text(String, contentType: String?)
        /// `bodyFile`: a file's bytes, with `contentType` when given.
        case file(path: String, contentType: String?)
        /// `multipart`: parts in order.
        case multipart([Part])
        /// `graphql`: a GraphQL operation (`query`, its `variables` when any), POSTed as JSON by the runner.
        case graphql(query: String, variables: JSONValue?)
    }

    /// One part of a `multipart` body.
    package struct Part: Sendable, Equatable {
        /// Where the part's content comes from.
        package enum Content: Sendable, Equatable {
            /// `value`: a text field.
            case value(String)
            /// `file`: a file streamed from disk (path as written into the suite).
            case file(String)
            /// `data`: inline content, sent like a file when the part has a filename.
            case data(String)
        }

        /// `name`.
        package var name: String
        /// The content.
        package var content: Content
        /// `filename`.
        package var filename: String?
        /// `contentType`.
        package var contentType: String?
        /// `headers`: more header fields of the part, in order.
        package var headers: [Header] = []

        /// A part named `name`.
        package init(name: String, content: Content, filename: String? = nil, contentType: String? = nil) {
            self.name = name
            self.content = content
            self.filename = filename
            self.contentType = contentType
        }
    }
}

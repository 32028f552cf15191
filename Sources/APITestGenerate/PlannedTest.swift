import APITestJSON

/// What the generator makes of one operation: a test, or the reason it cannot be built honestly.
enum OperationPlan: Sendable {
    case test(PlannedTest)
    /// The reason, for a comment in the file (`the required body is multipart/form-data`).
    case skipped(reason: String)
}

/// A test for one operation, ready to be written.
struct PlannedTest: Sendable {
    /// The test's name: the `operationId`, else `METHOD /path`.
    var name: String
    /// The operation's `summary`, for a comment above the test.
    var summary: String?
    /// Remarks for comments above the test (an example of the document that its schema rejects, a status chosen
    /// without a 2xx declared, the credential a placeholder stands for).
    var notes: [String] = []
    /// The request.
    var request: PlannedRequest
    /// `expect.status`: a code (`200`) or a class (`"2XX"`).
    var status: JSONValue
    /// The environment variables its placeholders name.
    var environment: [String] = []
}

/// The request of a ``PlannedTest``, as the suite writes it.
struct PlannedRequest: Sendable {
    /// The method, upper case.
    var method: String
    /// The URL relative to the suite's `baseURL` (`pets/1?limit=2`): path values and query percent-encoded.
    var url: String
    /// Query parameters the suite serializes itself (a credential that is a placeholder).
    var query: [(name: String, value: String)] = []
    /// Header fields, in order (values may hold `{{ env.NAME }}` placeholders).
    var headers: [(name: String, value: String)] = []
    /// `basicAuth`: the username and password (placeholders).
    var basicAuth: (username: String, password: String)?
    /// The body.
    var body: PlannedBody?
    /// `followRedirects: false` when the status expected is a redirect.
    var followRedirects: Bool?
}

/// A request body as the suite writes it.
enum PlannedBody: Sendable {
    /// `json:`, sent as `application/json`.
    case json(JSONValue)
    /// `body:` with `contentType:` (JSON text for a `+json` media type, or plain text).
    case text(String, contentType: String)
    /// `form:`, sent as `application/x-www-form-urlencoded`.
    case form(JSONObject)
}

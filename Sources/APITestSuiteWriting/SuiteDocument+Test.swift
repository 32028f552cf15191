package import APITestJSON

// MARK: - Tests

extension SuiteDocument {
    /// One test (or one `setup` or `teardown` step) of a suite: a request, what its response must satisfy, what to
    /// capture from it, and the comments and notes written above it.
    package struct Test: Sendable {
        /// The test's `name` (made unique within the suite by the renderer).
        package var name: String
        /// `tags`.
        package var tags: [String] = []
        /// `forEach`: the rows the test runs once each for (a list of maps, or `{file: rows.csv}`).
        package var forEach: JSONValue?
        /// The request.
        package var request: Request
        /// The test's first step as a WebSocket conversation instead of ``request``: the test is then written with
        /// `steps:` (a `websocket:` step has no form at the test's level), and ``request``, ``expect`` and
        /// ``captures`` are not written (a conversation checks and captures in its actions).
        package var websocket: WebSocket?
        /// `expect`.
        package var expect = Expectation()
        /// `capture`: variable name → a query in the general form (`{jsonpath: $.token}`, `{header: Location}`).
        package var captures: [(name: String, query: JSONValue)] = []
        /// Comment lines written above the test (where it comes from, for instance).
        package var comments: [String] = []
        /// What of the test's source was not translated, or what the reader should know (written as comments above
        /// the test, after ``comments``).
        package var notes: [Note] = []
        /// Steps after the first: when there are any, the test is written with `steps:` (its own request, expect
        /// and capture first) and their notes are written above it with its own.
        package var laterSteps: [Step] = []

        /// A test named `name` sending `request`.
        package init(name: String, request: Request) {
            self.name = name
            self.request = request
        }

        /// A test named `name` holding the conversation `websocket` (``request`` is its URL, not written).
        package init(name: String, websocket: WebSocket) {
            self.name = name
            self.request = Request(url: websocket.url)
            self.websocket = websocket
        }

        /// Drops the comments and notes of the test and of its steps: what is left is what the suite reads.
        mutating func removeComments() {
            comments = []
            notes = []
            for index in laterSteps.indices { laterSteps[index].notes = [] }
        }
    }

    /// A test's `expect`.
    package struct Expectation: Sendable {
        /// `status`: codes or classes (`200`, `2xx`); one is written as a scalar, empty leaves the suite's default
        /// (any 2xx).
        package var status: [JSONValue] = []
        /// `headers`: name → expected value or predicate map.
        package var headers: [(name: String, check: JSONValue)] = []
        /// `json`: JSONPath → expected value or predicate map, in order.
        package var json: [(path: String, check: JSONValue)] = []
        /// `schema`: a JSON Schema file (as written into the suite) the body must satisfy.
        package var schema: String?
        /// `assert`: checks in the general form (`{query: duration, lessThan: 500}`).
        package var assertions: [JSONValue] = []

        /// No expectation.
        package init() {}

        /// Whether nothing is expected beyond the default.
        package var isEmpty: Bool {
            status.isEmpty && headers.isEmpty && json.isEmpty && schema == nil && assertions.isEmpty
        }
    }
}

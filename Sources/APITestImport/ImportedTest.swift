package import APITestJSON

/// One test of an imported suite: a request, what its response must satisfy, what to capture from it, and the notes
/// about what of its source was not translated.
package struct ImportedTest: Sendable {
    /// The test's `name` (made unique within the suite by the renderer).
    package var name: String
    /// `tags`.
    package var tags: [String] = []
    /// The request.
    package var request: ImportedRequest
    /// `expect`.
    package var expect = ImportedExpectation()
    /// `capture`: variable name → a query in the general form (`{jsonpath: $.token}`, `{header: Location}`).
    package var captures: [(name: String, query: JSONValue)] = []
    /// Comment lines written above the test (where it comes from, for instance).
    package var comments: [String] = []
    /// What of the test's source was not translated (written as comments above the test).
    package var notes: [ImportNote] = []
    /// Steps after the first: when there are any, the test is written with `steps:` (its own request, expect and
    /// capture first) and their notes are written above it with its own.
    package var laterSteps: [ImportedStep] = []

    /// A test named `name` sending `request`.
    package init(name: String, request: ImportedRequest) {
        self.name = name
        self.request = request
    }
}

/// A test's `expect`.
package struct ImportedExpectation: Sendable {
    /// `status`: codes or classes (`200`, `2xx`); empty leaves the suite's default (any 2xx).
    package var status: [JSONValue] = []
    /// `headers`: name → expected value or predicate map.
    package var headers: [(name: String, check: JSONValue)] = []
    /// `json`: JSONPath → expected value or predicate map, in order.
    package var json: [(path: String, check: JSONValue)] = []
    /// `assert`: checks in the general form (`{query: duration, lessThan: 500}`).
    package var assertions: [JSONValue] = []

    /// No expectation.
    package init() {}

    /// Whether nothing is expected beyond the default.
    package var isEmpty: Bool {
        status.isEmpty && headers.isEmpty && json.isEmpty && assertions.isEmpty
    }
}

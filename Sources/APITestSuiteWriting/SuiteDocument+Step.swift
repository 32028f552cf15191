package import APITestJSON

// MARK: - Later steps

extension SuiteDocument {
    /// A step of a test after its first (the test's own ``Test/request``): a request that uses what an earlier
    /// step captured, so it must run in the same test, after it (captures are visible to later steps of the same
    /// test only). A Postman request that reads a variable an earlier request's script set becomes one.
    package struct Step: Sendable {
        /// Where the step comes from (the Postman request's path): the writer's own record, not written.
        package var source: String
        /// The request.
        package var request: Request
        /// The step as a WebSocket conversation instead of ``request``: ``request``, ``expect`` and ``captures`` are
        /// then not written.
        package var websocket: WebSocket?
        /// `expect`.
        package var expect = Expectation()
        /// `capture`: variable name → a query in the general form.
        package var captures: [(name: String, query: JSONValue)] = []
        /// What of the step's source was not translated (written as comments above the test).
        package var notes: [Note] = []

        /// A step from `source` sending `request`.
        package init(source: String, request: Request) {
            self.source = source
            self.request = request
        }

        /// A step from `source` holding the conversation `websocket` (``request`` is its URL, not written).
        package init(source: String, websocket: WebSocket) {
            self.source = source
            self.request = Request(url: websocket.url)
            self.websocket = websocket
        }
    }
}

package import APITestJSON

/// A step of an imported test after its first (the test's own ``ImportedTest/request``): a request that uses what an
/// earlier step captured, so it must run in the same test, after it (captures are visible to later steps of the same
/// test only). A Postman request that reads a variable an earlier request's script set becomes one.
package struct ImportedStep: Sendable {
    /// Where the step comes from (the Postman request's path), written as a comment above the test.
    package var name: String
    /// The request.
    package var request: ImportedRequest
    /// `expect`.
    package var expect = ImportedExpectation()
    /// `capture`: variable name → a query in the general form.
    package var captures: [(name: String, query: JSONValue)] = []
    /// What of the step's source was not translated (written as comments above the test).
    package var notes: [ImportNote] = []

    /// A step named `name` sending `request`.
    package init(name: String, request: ImportedRequest) {
        self.name = name
        self.request = request
    }
}

package import APITestJSON
package import APITestSupport

/// One test of a suite: a name and the steps that run in order, sharing captures.
package struct TestCase: Sendable, Hashable {
    package var name: String
    /// Tags from the suite (`tags: [smoke]`), for selecting tests.
    package var tags: [String]
    /// Where the test's map starts.
    package var location: SourceLocation
    /// The steps; a test written with `request`/`expect`/`capture` has exactly one.
    package var steps: [Step]
    /// Why the test is not run (`skip: reason`), or `nil` to run it.
    package var skip: String?
    /// `load: {weight: N}`: how often `apitest load` picks this test against the others (default 1, 0 never).
    package var loadWeight = 1
    /// The condition under which the test runs, evaluated when it starts (with the suite's variables and what
    /// `setup` captured); false skips it before anything is sent. Boxed: most tests have none, and a `Condition?`
    /// takes 56 bytes inline in each of a suite's (up to 100,000) tests.
    @Boxed package var when: Condition? = nil
    /// The values of a `forEach` row, visible to the test's templates by name; empty for other tests.
    package var bindings: [Binding] = []
    /// `retries: N`: how many times the whole test is run again when it fails or errors, each time afresh; `nil`
    /// for the run's `--retries`. Not a step's `retry:`, which sends one request again within a run of the test.
    package var retries: Int?

    /// The most times `retries:` (and `--retries`) may run a test again.
    package static let maxRetries = 100

    /// One value of a `forEach` row.
    package struct Binding: Sendable, Hashable {
        package var name: String
        package var value: JSONValue

        package init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    package init(name: String, tags: [String] = [], location: SourceLocation, steps: [Step]) {
        self.name = name
        self.tags = tags
        self.location = location
        self.steps = steps
    }
}

import APITestJSON
import APITestSupport

/// One test of a suite: a name and the steps that run in order, sharing captures.
public struct TestCase: Sendable, Hashable {
    public var name: String
    /// Tags from the suite (`tags: [smoke]`), for selecting tests.
    public var tags: [String]
    /// Where the test's map starts.
    public var location: SourceLocation
    /// The steps; a test written with `request`/`expect`/`capture` has exactly one.
    public var steps: [Step]
    /// Why the test is not run (`skip: reason`), or `nil` to run it.
    public var skip: String?
    /// The values of a `forEach` row, visible to the test's templates by name; empty for other tests.
    public var bindings: [Binding] = []

    /// One value of a `forEach` row.
    public struct Binding: Sendable, Hashable {
        public var name: String
        public var value: JSONValue

        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    public init(name: String, tags: [String] = [], location: SourceLocation, steps: [Step]) {
        self.name = name
        self.tags = tags
        self.location = location
        self.steps = steps
    }
}

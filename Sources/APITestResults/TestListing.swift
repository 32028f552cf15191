/// The tests a run would execute, in the order it starts them: what `apitest list` shows.
public struct TestListing: Sendable, Hashable {
    /// One selected test.
    public struct Entry: Sendable, Hashable {
        /// The suite file as found from the paths given.
        public var suiteFile: String
        /// The suite file relative to the common folder of all suite files (the shard sort key).
        public var relativePath: String
        /// The suite's name.
        public var suiteName: String
        /// The test's name.
        public var testName: String
        /// The line of the test in its file.
        public var line: Int
        /// How many steps the test has.
        public var steps: Int
        /// The test's tags.
        public var tags: [String]
        /// The `skip:` reason, when the test would be reported as skipped.
        public var skip: String?

        /// An entry with every field.
        public init(
            suiteFile: String, relativePath: String, suiteName: String, testName: String, line: Int, steps: Int,
            tags: [String], skip: String?
        ) {
            self.suiteFile = suiteFile
            self.relativePath = relativePath
            self.suiteName = suiteName
            self.testName = testName
            self.line = line
            self.steps = steps
            self.tags = tags
            self.skip = skip
        }
    }

    /// Tests in all the suites loaded.
    public var total: Int
    /// Tests that pass the filters and tags.
    public var matched: Int
    /// The shard listed, 1-based, and the number of shards; `nil` without `--shard`.
    public var shard: (index: Int, count: Int)?
    /// The selected tests (in this shard), in run order.
    public var tests: [Entry]

    /// A listing of `tests` out of `matched` matching and `total` loaded.
    public init(total: Int, matched: Int, shard: (index: Int, count: Int)?, tests: [Entry]) {
        self.total = total
        self.matched = matched
        self.shard = shard
        self.tests = tests
    }

    public static func == (lhs: TestListing, rhs: TestListing) -> Bool {
        lhs.total == rhs.total && lhs.matched == rhs.matched && lhs.shard?.index == rhs.shard?.index
            && lhs.shard?.count == rhs.shard?.count && lhs.tests == rhs.tests
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(total)
        hasher.combine(matched)
        hasher.combine(shard?.index)
        hasher.combine(shard?.count)
        hasher.combine(tests)
    }
}

/// The tests a run would execute, in the order it starts them: what `apitest list` shows.
package struct TestListing: Sendable, Hashable {
    /// One selected test.
    package struct Entry: Sendable, Hashable {
        /// The suite file as found from the paths given.
        package var suiteFile: String
        /// The suite file relative to the common folder of all suite files (the shard sort key).
        package var relativePath: String
        /// The suite's name.
        package var suiteName: String
        /// The test's name.
        package var testName: String
        /// The line of the test in its file.
        package var line: Int
        /// How many steps the test has.
        package var steps: Int
        /// The test's tags.
        package var tags: [String]
        /// The `skip:` reason, when the test would be reported as skipped.
        package var skip: String?
        /// How long it is expected to take (`--shard-timings`), in seconds; nil without timings.
        package var expectedSeconds: Double?

        /// An entry with every field.
        package init(
            suiteFile: String, relativePath: String, suiteName: String, testName: String, line: Int, steps: Int,
            tags: [String], skip: String?, expectedSeconds: Double? = nil
        ) {
            self.expectedSeconds = expectedSeconds
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
    package var total: Int
    /// Tests that pass the filters and tags.
    package var matched: Int
    /// The shard listed, 1-based, and the number of shards; `nil` without `--shard`.
    package var shard: (index: Int, count: Int)?
    /// The selected tests (in this shard), in run order.
    package var tests: [Entry]

    /// A listing of `tests` out of `matched` matching and `total` loaded.
    package init(total: Int, matched: Int, shard: (index: Int, count: Int)?, tests: [Entry]) {
        self.total = total
        self.matched = matched
        self.shard = shard
        self.tests = tests
    }

    package static func == (lhs: TestListing, rhs: TestListing) -> Bool {
        lhs.total == rhs.total && lhs.matched == rhs.matched && lhs.shard?.index == rhs.shard?.index
            && lhs.shard?.count == rhs.shard?.count && lhs.tests == rhs.tests
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(total)
        hasher.combine(matched)
        hasher.combine(shard?.index)
        hasher.combine(shard?.count)
        hasher.combine(tests)
    }
}

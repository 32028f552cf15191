import APITestHTTP
package import APITestSuite
import APITestSupport
import Foundation

/// Which tests of the loaded suites a run executes: `--filter`, `--tag`, `--exclude-tag` and `--shard`.
///
/// - `filters`: regular expressions searched (unanchored, case-sensitive) in `suite name › test name`; a test is
///   selected when any of them matches. `(?i)` makes one case-insensitive.
/// - `tags`: a test is selected when it has any of them. `excludedTags`: a test that has any of them is not
///   selected, whatever else matches (exclusion wins).
/// - `shard`: after filtering, the selected tests are sorted by (suite file path relative to the common folder of
///   all suite files, in UTF-8 byte order; test index in its file) and cut into N contiguous balanced blocks.
///   The order PATHs are given in, and where the checkout lives, do not change which shard a test is in.
///
/// Tests that are not selected are simply absent from the run (not reported as skipped); `skip:` tests that are
/// selected are reported as skipped as before.
package struct TestSelection: Sendable {
    package var filters: [TestFilter]
    package var tags: [String]
    package var excludedTags: [String]
    package var shard: ShardSpec?
    /// The durations of an earlier run (`--shard-timings`): with them the shards are balanced by expected time
    /// (``ShardBalancer``) instead of cut into blocks of equal counts.
    package var timings: ShardTimings?
    /// `--last-failed`: only the tests an earlier report says failed or errored; `nil` for every test.
    package var lastFailed: LastFailedTests?

    package init(
        filters: [TestFilter] = [], tags: [String] = [], excludedTags: [String] = [], shard: ShardSpec? = nil,
        timings: ShardTimings? = nil
    ) {
        self.filters = filters
        self.tags = tags
        self.excludedTags = excludedTags
        self.shard = shard
        self.timings = timings
    }

    /// Whether `--filter`, `--tag` or `--exclude-tag` narrow the selection (sharding aside).
    package var narrows: Bool { !filters.isEmpty || !tags.isEmpty || !excludedTags.isEmpty || lastFailed != nil }

    // MARK: - Matching

    /// Whether `test` of `suite` passes the filters and tags (sharding aside).
    package func matches(_ test: TestCase, in suite: Suite) -> Bool {
        if test.tags.contains(where: excludedTags.contains) { return false }
        if let lastFailed, !lastFailed.contains(test, in: suite) { return false }
        if !tags.isEmpty && !test.tags.contains(where: tags.contains) { return false }
        if !filters.isEmpty {
            let fullName = TestSelection.fullName(suite: suite.name, test: test.name)
            if !filters.contains(where: { $0.matches(fullName) }) { return false }
        }
        return true
    }

    /// `suite name › test name`, the text `--filter` is matched against.
    package static func fullName(suite: String, test: String) -> String { "\(suite) › \(test)" }

    // MARK: - Applying

    /// The selected tests of `suites` (in the order given, as loaded), and the suites narrowed to them.
    package func apply(to suites: [Suite]) -> Result {
        let relativePaths = Self.relativePaths(of: suites)
        var matched: [Entry] = []
        // Room for every test, and each test read in place by index (`enumerated()` copied every test out).
        matched.reserveCapacity(suites.reduce(0) { $0 + $1.tests.count })
        for (suiteIndex, suite) in suites.enumerated() {
            let tests = suite.tests
            for testIndex in tests.indices where matches(tests[testIndex], in: suite) {
                matched.append(
                    Entry(
                        suiteIndex: suiteIndex, testIndex: testIndex, relativePath: relativePaths[suiteIndex],
                        suiteFile: suite.file, suiteName: suite.name, testName: tests[testIndex].name,
                        tags: tests[testIndex].tags, line: tests[testIndex].location.line,
                        skip: tests[testIndex].skip, steps: tests[testIndex].steps.count))
            }
        }
        var selected = matched
        var expected: [[Int]: Double] = [:]
        if let timings {
            let median = timings.median
            for entry in matched {
                expected[entry.key] =
                    timings.durations[Self.fullName(suite: entry.suiteName, test: entry.testName)] ?? median
            }
        }
        // The shards' cut and the fingerprint both read the selection in canonical order.
        let canonical = Entry.inCanonicalOrder(matched)
        if let shard {
            let chosen: Set<[Int]>
            if let timings {
                let items = canonical.enumerated().map { position, entry in
                    ShardBalancer.Item(
                        position: position, suite: entry.suiteName, seconds: expected[entry.key] ?? 0)
                }
                let assignment = ShardBalancer.assign(items, count: shard.count) { timings.suiteCosts[$0] ?? 0 }
                chosen = Set(
                    canonical.enumerated().filter { assignment[$0.offset] == shard.index - 1 }.map(\.element.key))
            } else {
                chosen = Set(canonical[shard.range(ofTotal: canonical.count)].map(\.key))
            }
            selected = matched.filter { chosen.contains($0.key) }
        }
        if timings != nil {
            for index in selected.indices { selected[index].expectedSeconds = expected[selected[index].key] }
        }
        var narrowed: [Suite] = []
        if selected.count == matched.count && !narrows {
            narrowed = suites.filter { !$0.tests.isEmpty }
        } else {
            var testIndices = [[Int]](repeating: [], count: suites.count)
            for entry in selected { testIndices[entry.suiteIndex].append(entry.testIndex) }
            for (suiteIndex, suite) in suites.enumerated() where !testIndices[suiteIndex].isEmpty {
                var copy = suite
                copy.tests = testIndices[suiteIndex].map { suite.tests[$0] }
                narrowed.append(copy)
            }
        }
        var suiteFiles: [String] = []
        var digestSources: [SourceDigest] = []
        for entry in matched where suiteFiles.last != entry.relativePath {
            suiteFiles.append(entry.relativePath)
            digestSources.append(suites[entry.suiteIndex].digestOfSource)
        }
        var result = Result(
            suites: narrowed, tests: selected, matchedCount: matched.count,
            totalCount: suites.reduce(0) { $0 + $1.tests.count }, shard: shard)
        result.canonicalTests = canonical
        result.suiteFiles = suiteFiles
        result.digestSources = digestSources
        return result
    }

    /// Each suite file's path relative to the deepest folder that holds all of them (absolute, standardized).
    package static func relativePaths(of suites: [Suite]) -> [String] {
        let absolute = suites.map { suite -> [String] in
            let name = suite.file.split(separator: "/").last.map(String.init) ?? suite.file
            let path = FilePaths.absolute(name, relativeTo: suite.directory)
            return path.split(separator: "/").map(String.init)
        }
        guard var common = absolute.first.map({ Array($0.dropLast()) }) else { return [] }
        for components in absolute.dropFirst() {
            let folder = components.dropLast()
            var length = 0
            while length < min(common.count, folder.count) && common[length] == folder[length] { length += 1 }
            common = Array(common.prefix(length))
        }
        return absolute.map { $0.dropFirst(common.count).joined(separator: "/") }
    }

    // MARK: - Results

    /// One selected test, with what `apitest list` shows of it.
    package struct Entry: Sendable, Hashable {
        /// Positions in the suites given to `apply(to:)`.
        package var suiteIndex: Int
        package var testIndex: Int
        /// The suite file relative to the common folder of all suite files: the shard sort key.
        package var relativePath: String
        /// The suite file as given.
        package var suiteFile: String
        package var suiteName: String
        package var testName: String
        package var tags: [String]
        /// The line of the test in its file.
        package var line: Int
        /// The `skip:` reason, when the test is selected but will be reported as skipped.
        package var skip: String?
        package var steps: Int
        /// How long the test is expected to take (`--shard-timings`), in seconds; nil without timings.
        package var expectedSeconds: Double?

        var key: [Int] { [suiteIndex, testIndex] }

        /// `entries` sorted by `canonicalOrder`; entries already in that order (one suite file, or files given in
        /// path order: the common case) are returned as they are, without sorting a copy.
        static func inCanonicalOrder(_ entries: [Entry]) -> [Entry] {
            var index = entries.startIndex + 1
            while index < entries.endIndex {
                if canonicalOrder(entries[index], entries[index - 1]) { return entries.sorted(by: canonicalOrder) }
                index += 1
            }
            return entries
        }

        /// Sorted by relative path in UTF-8 byte order, then by test index.
        static func canonicalOrder(_ a: Entry, _ b: Entry) -> Bool {
            if a.relativePath != b.relativePath {
                return a.relativePath.utf8.lexicographicallyPrecedes(b.relativePath.utf8)
            }
            if a.testIndex != b.testIndex { return a.testIndex < b.testIndex }
            return a.suiteIndex < b.suiteIndex
        }
    }

    /// What a selection chose.
    package struct Result: Sendable {
        /// The suites with at least one selected test, each narrowed to its selected tests, in the given order.
        package var suites: [Suite]
        /// The selected tests in run order (the given order of suites, then file order).
        package var tests: [Entry]
        /// Tests that passed the filters and tags, before sharding.
        package var matchedCount: Int
        /// Tests in all the suites given.
        package var totalCount: Int
        package var shard: ShardSpec?
        /// The selection before sharding in canonical order, which `fingerprint` digests.
        var canonicalTests: [Entry] = []
        /// The selection's suite files, relative to their common folder, in run order.
        package var suiteFiles: [String] = []
        /// The digests of `suiteFiles`' text, in the same order, each computed when first read.
        var digestSources: [SourceDigest] = []

        /// The SHA-256 of the whole selection before sharding (each test's suite path relative to the suites'
        /// common folder, and its name, in the canonical order): equal for every shard of one run. Computed when
        /// read (only the JSON and CTRF reports say it): about 30 instructions a byte where the CPU has no SHA
        /// instructions.
        package var fingerprint: String {
            // Bytes appended into one buffer, not a string grown by `+=` (four appends a test).
            var listing: [UInt8] = []
            listing.reserveCapacity(canonicalTests.count * 32)
            for entry in canonicalTests {
                entry.relativePath.withUTF8Bytes { listing.append(contentsOf: $0) }
                listing.append(UInt8(ascii: "\t"))
                entry.testName.withUTF8Bytes { listing.append(contentsOf: $0) }
                listing.append(UInt8(ascii: "\n"))
            }
            return BodyDigest.sha256(Data(listing))
        }

        /// The SHA-256 of each of `suiteFiles`' text, in the same order: which version of each file the run ran.
        /// Each file's digest is computed when first read (``SourceDigest``): a run without a JSON or CTRF report
        /// never hashes its suite files.
        package var suiteDigests: [String] { digestSources.map(\.hex) }
    }
}

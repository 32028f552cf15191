import APITestRunner
import APITestSuite
import Testing

/// The selection's suite digests are computed when a report asks for them, not when the selection is made: a run
/// without a JSON or CTRF report never hashes its suite files (issue 38: 3.4k instructions a test under callgrind).
@Suite struct SelectionDigestTests {
    /// Two suite files' text, each with two tests.
    static let texts = [
        "name: a\ntests:\n  - name: one\n    request: {url: 'http://127.0.0.1:9/1'}\n"
            + "  - name: two\n    request: {url: 'http://127.0.0.1:9/2'}\n",
        "name: b\ntests:\n  - name: three\n    request: {url: 'http://127.0.0.1:9/3'}\n",
    ]

    static func suites() throws -> [Suite] {
        try [
            SuiteLoader(environment: [:]).load(source: texts[0], file: "/work/ci/suites/a.yaml"),
            SuiteLoader(environment: [:]).load(source: texts[1], file: "/work/ci/suites/b.yaml"),
        ]
    }

    /// Making the selection hashes no suite file; reading `suiteDigests` then gives each file's SHA-256 in run
    /// order, as before.
    @Test func theSuiteDigestsAreComputedOnlyWhenRead() throws {
        let suites = try Self.suites()
        let result = TestSelection().apply(to: suites)
        #expect(suites.allSatisfy { !$0.digestOfSource.isComputed })
        #expect(result.suiteFiles == ["a.yaml", "b.yaml"])
        let expected = Self.texts.map { SourceDigest(of: $0).hex }
        #expect(expected.allSatisfy { $0.count == 64 })
        #expect(result.suiteDigests == expected)
        #expect(suites.allSatisfy { $0.digestOfSource.isComputed })
    }

    /// The fingerprint read later is the one of the whole selection before sharding: equal for every shard, and
    /// for the same selection made again.
    @Test func theFingerprintReadLaterIsTheWholeSelections() throws {
        let suites = try Self.suites()
        let whole = TestSelection().apply(to: suites).fingerprint
        #expect(whole.count == 64)
        #expect(TestSelection(shard: try ShardSpec(index: 1, count: 2)).apply(to: suites).fingerprint == whole)
        #expect(TestSelection(shard: try ShardSpec(index: 2, count: 2)).apply(to: suites).fingerprint == whole)
        #expect(TestSelection(tags: ["none"]).apply(to: suites).fingerprint != whole)
    }
}

import Testing

@testable import APITestSuite

/// The SHA-256 of a suite file's text is computed only when a command reads it (a run's selection, for the JSON
/// report), not by every load: `validate` skips it.
@Suite("Source digest")
struct SourceDigestTests {
    private static let text = """
        name: digest
        tests:
          - name: one
            request: {url: "http://127.0.0.1:1/"}
        """

    @Test func loadingDoesNotComputeTheDigest() throws {
        let suite = try SuiteLoader(environment: [:]).load(source: Self.text, file: "digest.yaml")
        #expect(!suite.digestOfSource.isComputed)
    }

    @Test func theDigestIsTheSHA256OfTheTextWhenRead() throws {
        let suite = try SuiteLoader(environment: [:]).load(source: Self.text, file: "digest.yaml")
        // The text's SHA-256, as sha256sum prints it.
        #expect(suite.sourceDigest == "b6ef3548378e655d28472b407756f2e990751c870d33bb52523f05750f2b4940")
        #expect(suite.digestOfSource.isComputed)
        let copy = suite
        #expect(copy.sourceDigest == suite.sourceDigest)
    }

    @Test func aDigestSetByHandIsKept() {
        let digest = SourceDigest(hex: "abc")
        #expect(digest.isComputed)
        #expect(digest.hex == "abc")
        #expect(SourceDigest(of: "a") == SourceDigest(of: "a"))
        #expect(SourceDigest(of: "a") != SourceDigest(of: "b"))
    }
}

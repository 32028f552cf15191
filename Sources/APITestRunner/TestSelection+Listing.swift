package import APITestResults

// MARK: - Listing

extension TestSelection.Result {
    /// What `apitest list` shows of this selection: a results-layer value the reporting layer renders.
    package var listing: TestListing {
        TestListing(
            total: totalCount, matched: matchedCount, shard: shard.map { ($0.index, $0.count) },
            tests: tests.map {
                TestListing.Entry(
                    suiteFile: $0.suiteFile, relativePath: $0.relativePath, suiteName: $0.suiteName,
                    testName: $0.testName, line: $0.line, steps: $0.steps, tags: $0.tags, skip: $0.skip,
                    expectedSeconds: $0.expectedSeconds)
            })
    }
}

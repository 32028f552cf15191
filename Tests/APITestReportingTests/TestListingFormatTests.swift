import APITestResults
import Foundation
import Testing

@testable import APITestReporting

/// `apitest list`'s output, rendered by the reporting layer from a results-layer listing.
@Suite struct TestListingFormatTests {
    let listing = TestListing(
        total: 5, matched: 3, shard: (2, 4),
        tests: [
            TestListing.Entry(
                suiteFile: "suites/a.yaml", relativePath: "a.yaml", suiteName: "A", testName: "first", line: 4,
                steps: 2, tags: ["smoke", "api"], skip: nil),
            TestListing.Entry(
                suiteFile: "suites/a.yaml", relativePath: "a.yaml", suiteName: "A", testName: "later", line: 9,
                steps: 1, tags: [], skip: "flaky"),
        ])

    @Test func textIsOneLinePerTest() {
        #expect(
            TestListingFormat.text(listing)
                == "suites/a.yaml › A › first [smoke, api]\nsuites/a.yaml › A › later (skipped: flaky)\n")
    }

    @Test func jsonCountsTheShardAndEveryField() throws {
        let text = try TestListingFormat.json(listing)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 5)
        #expect(object["matched"] as? Int == 3)
        #expect(object["selected"] as? Int == 2)
        #expect((object["shard"] as? [String: Int]) == ["index": 2, "count": 4])
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["first", "later"])
        #expect(tests[0]["skip"] == nil)
        #expect(tests[1]["skip"] as? String == "flaky")
        #expect(tests[0]["path"] as? String == "a.yaml")
        #expect(tests[0]["steps"] as? Int == 2)
        #expect(text.hasSuffix("}\n"))
    }
}

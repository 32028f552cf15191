import APITestSuite
import Testing

/// `Suite.usesXPath` decides whether `apitest run` checks for libxml2 before sending anything: every place a query
/// or filter can stand must count, and only those.
@Suite struct SuiteXPathTests {
    static func suite(_ yaml: String) throws -> Suite {
        try SuiteLoader(environment: [:]).load(source: "baseURL: http://h/\n" + yaml, file: "/r/s.yaml")
    }

    @Test(arguments: [
        // A check in the short form and in the general form, a filter of a check.
        "tests: [{name: t, request: {url: x}, expect: {xml: {'//a': b}}}]",
        "tests: [{name: t, request: {url: x}, expect: {assert: [{xpath: 'string(//a)', equals: b}]}}]",
        "tests: [{name: t, request: {url: x}, expect: {assert: [{query: body, filters: [{xpath: '//a'}], equals: b}]}}]",
        // A capture's query and a capture's filter.
        "tests: [{name: t, request: {url: x}, capture: {v: {xpath: 'string(//a)'}}}]",
        "tests: [{name: t, request: {url: x}, capture: {v: {header: X, filters: [{xpath: '//a'}]}}}]",
        // A step's until, the default retry's until.
        "tests: [{name: t, request: {url: x}, retry: {attempts: 2, until: {xml: {'//done': 'true'}}}}]",
        "defaults: {retry: {attempts: 2, until: {xml: {'//done': 'true'}}}}\ntests: [{name: t, request: {url: x}}]",
        // Setup and teardown.
        "setup: [{request: {url: x}, expect: {xml: {'//a': b}}}]\ntests: [{name: t, request: {url: x}}]",
        "teardown: [{request: {url: x}, expect: {xml: {'//a': b}}}]\ntests: [{name: t, request: {url: x}}]",
    ])
    func counts(_ yaml: String) throws {
        #expect(try Self.suite(yaml).usesXPath)
    }

    @Test func leavesOutJSONOnlySuitesAndSkippedTests() throws {
        #expect(try !Self.suite("tests: [{name: t, request: {url: x}, expect: {json: {$.a: b}}}]").usesXPath)
        let skipped = "tests: [{name: t, skip: later, request: {url: x}, expect: {xml: {'//a': b}}}]"
        #expect(try !Self.suite(skipped).usesXPath)
    }
}

import Testing

@testable import APITestSuite

/// A filter name beside a query in `assert` (`{jsonpath: "$[*]", count: 1}`) leads to the rest as it does under
/// `json:` (`$[*]: {count: 1}`); beside a predicate it is a located error that says it is a filter. It was
/// "unknown predicate 'count'; did you mean 'count'?" (found by the issue 37 helpers).
@Suite struct FilterBesideQueryTests {
    static func suite(_ check: String) -> String {
        "tests:\n  - name: t\n    request: {url: 'http://h/'}\n    expect:\n      assert:\n        - \(check)\n"
    }

    @Test func aFilterBesideAQueryLeadsToTheRest() throws {
        let suite = try loadSuite(Self.suite(#"{jsonpath: "$[*]", count: 2}"#))
        let assertion = try #require(suite.tests.first?.steps.first?.expect.assertions.first)
        #expect(assertion.filters == [.count])
        #expect(assertion.predicate == .equals)
        let nested = try loadSuite(Self.suite(#"{jsonpath: "$[*]", count: {greaterThan: 0}}"#))
        #expect(nested.tests.first?.steps.first?.expect.assertions.first?.predicate == .greaterThan)
    }

    @Test func aFilterBesideAPredicateSaysItIsAFilter() {
        #expect(
            errors(Self.suite(#"{jsonpath: "$[*]", count: 1, equals: 2}"#)) == [
                "suites/test.yaml:6:30: error: 'count' is a filter, not a predicate (write 'count: {PREDICATE: VALUE}' "
                    + "on its own, or list it under 'filters:')"
            ])
    }
}

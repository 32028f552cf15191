import Testing

@testable import APITestSuite

/// `Suite.containsStep` and `forEachStep` visit every step in place: setup, each test in order, then teardown, with
/// the steps of skipped tests left out on request. `usesXPath` and the load-time URL check rely on them.
@Suite struct SuiteStepsTests {
    static let yaml = """
        baseURL: http://h/
        setup:
          - request: {url: s1}
          - request: {url: s2}
        tests:
          - name: a
            request: {url: a1}
          - name: b
            skip: later
            steps:
              - request: {url: b1}
              - request: {url: b2}
          - name: c
            steps:
              - request: {url: c1}
              - request: {url: c2}
        teardown:
          - request: {url: t1}
        """

    @Test func visitsEveryStepInOrder() throws {
        let suite = try loadSuite(Self.yaml)
        var urls: [String] = []
        suite.forEachStep { urls.append($0.request.url.source) }
        #expect(urls == ["s1", "s2", "a1", "b1", "b2", "c1", "c2", "t1"])

        urls.removeAll()
        suite.forEachStep(includingSkippedTests: false) { urls.append($0.request.url.source) }
        #expect(urls == ["s1", "s2", "a1", "c1", "c2", "t1"])
    }

    @Test func containsStopsAtTheFirstMatch() throws {
        let suite = try loadSuite(Self.yaml)
        var seen: [String] = []
        let found = suite.containsStep { step in
            seen.append(step.request.url.source)
            return step.request.url.source == "b2"
        }
        #expect(found)
        #expect(seen == ["s1", "s2", "a1", "b1", "b2"])
        #expect(!suite.containsStep(includingSkippedTests: false) { $0.request.url.source == "b2" })
        #expect(suite.containsStep { $0.request.url.source == "t1" })
        #expect(!suite.containsStep { $0.request.url.source == "none" })
    }

    /// A URL that starts with a built-in value is checked with a sample of it, wherever the step is (here the
    /// teardown, the last place visited): without a base URL it is relative, and that is an error.
    @Test func aURLThatStartsWithABuiltinIsCheckedWhereverItIs() {
        let yaml = """
            tests:
              - name: t
                request: {url: "http://h/a"}
            teardown:
              - request: {url: "{{ now.unix }}/x"}
            """
        #expect(
            errors(yaml) == [
                "suites/test.yaml:5:20: error: relative URL '{{ now.unix }}/x' needs a 'baseURL' in the suite (add "
                    + "'baseURL: http://host:port/' at the top level, or write an absolute http(s) URL)"
            ])
    }
}

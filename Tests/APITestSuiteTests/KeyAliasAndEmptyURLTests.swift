import APITestSupport
import Testing

@testable import APITestSuite

/// Issue 37: the messages a newcomer meets writing a first suite. An unknown key that is another tool's name of a
/// key gets that key as its did-you-mean however far apart the two are spelled, and an empty `url` says what names
/// the base URL.
@Suite("Key aliases and the empty URL")
struct KeyAliasAndEmptyURLTests {
    // MARK: - Key aliases

    /// `xpath` under `expect` is `xml`, `jsonpath` is `json`: edit distances of 4 and 4, so no suggestion before.
    @Test func expectKeysNamedAsOtherToolsNameThem() {
        let cases: [(written: String, meant: String)] = [
            ("xpath", "xml"), ("jsonPath", "json"), ("json_path", "json"), ("statusCode", "status"),
            ("status_code", "status"), ("code", "status"), ("responseTime", "duration"), ("jsonSchema", "schema"),
            ("header", "headers"), ("assertions", "assert"),
        ]
        for (written, meant) in cases {
            #expect(
                errors(
                    """
                    tests:
                      - name: t
                        request: {url: "http://h/"}
                        expect: {\(written): {}}
                    """) == [
                        "suites/test.yaml:4:14: error: unknown key '\(written)' in expect; did you mean '\(meant)'?"
                    ], "\(written)")
        }
    }

    /// The other way round in a query (`capture`), whose keys are `xpath` and `jsonpath`: `json` was 4 edits away.
    @Test func queryKeysNamedAsExpectNamesThem() {
        #expect(
            errors(
                """
                tests:
                  - name: t
                    request: {url: "http://h/"}
                    capture: {name: {json: "$.name", filters: [trim]}}
                """) == [
                    "suites/test.yaml:4:22: error: unknown key 'json' in capture 'name'; did you mean 'jsonpath'?"
                ])
        // A capture without a query: its unknown key is the one offered, `xml` as `xpath` (before: "needs a query").
        #expect(
            errors(
                """
                tests:
                  - name: t
                    request: {url: "http://h/"}
                    capture: {id: {xml: "/a"}}
                """) == ["suites/test.yaml:4:20: error: unknown key 'xml' in capture 'id'; did you mean 'xpath'?"])
    }

    /// Aliases of the suite's and the request's keys; a word of a group whose construct has no key of that group
    /// gets the spelling suggestion as before (none here).
    @Test func suiteAndRequestAliases() {
        #expect(
            errors(
                """
                vars: {a: 1}
                tests:
                  - name: t
                    request: {url: "http://h/", params: {a: 1}, verb: GET}
                    expect: {status: 200}
                """) == [
                    "suites/test.yaml:1:1: error: unknown key 'vars' in the suite; did you mean 'variables'?",
                    "suites/test.yaml:4:33: error: unknown key 'params' in request; did you mean 'query'?",
                    "suites/test.yaml:4:49: error: unknown key 'verb' in request; did you mean 'method'?",
                ])
        #expect(KeyAlias.suggestion(for: "xpath", among: ["name", "request"]) == nil)
        #expect(KeyAlias.suggestion(for: "bogus", among: ExpectParser.Key.names) == nil)
        #expect(KeyAlias.suggestion(for: "Status-Code", among: ExpectParser.Key.names) == "status")
    }

    // MARK: - An empty URL

    /// `url: ""` says what names the base URL: `./` (`/` is the root of the base URL's host).
    @Test func emptyURLWithABaseURL() {
        #expect(
            errors(
                """
                baseURL: http://h/api/
                tests:
                  - {name: t, request: {url: ""}}
                """) == [
                    "suites/test.yaml:3:30: error: 'url' is empty (write './' for the baseURL itself; '/' is the "
                        + "root of its host, which drops the baseURL's path)"
                ])
        // The same for a URL that is a placeholder-free template checked after parsing (an included suite's steps).
        let placeholder = errors(
            """
            baseURL: "http://h/{{ v }}/"
            variables: {v: api}
            tests:
              - {name: t, request: {url: ""}}
            """)
        #expect(placeholder.count == 1)
        #expect(placeholder.first?.contains("write './' for the baseURL itself") == true)
    }

    /// Without a base URL the note says to write an absolute URL.
    @Test func emptyURLWithoutABaseURL() {
        #expect(
            errors(
                """
                tests:
                  - {name: t, request: {url: ""}}
                """) == [
                    "suites/test.yaml:2:30: error: 'url' is empty (write an absolute http(s) URL, or add a 'baseURL' "
                        + "and a path relative to it ('./' for the baseURL itself))"
                ])
    }

    /// `./`, the URL the note offers, loads.
    @Test func dotSlashLoads() throws {
        let suite = try loadSuite(
            """
            baseURL: http://h/api/
            tests:
              - {name: t, request: {url: ./}}
            """)
        #expect(suite.tests.first?.steps.first?.request.url.source == "./")
    }
}

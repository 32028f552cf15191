import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Checks a step could never pass are load errors: a body check beside `expect.events` (the body is read as a
/// stream of events, not kept), and `expect.graphql` on a request that is not `graphql:`.
@Suite("expect conflicts")
struct ExpectConflictTests {
    // MARK: - events

    @Test func aJSONCheckBesideEventsIsALocatedLoadError() {
        let found = errors(
            """
            tests:
              - name: e
                request: {url: "http://127.0.0.1:9/events/ndjson?count=3"}
                expect:
                  json: {"$.n": 0}
                  events: {count: 3}
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("suites/test.yaml:5:14") == true, "\(found)")
        #expect(found.first?.contains("'$.n' reads the response body") == true, "\(found)")
        #expect(found.first?.contains("'expect.events'") == true, "\(found)")
    }

    @Test(arguments: [
        "body: {contains: \"event 1\"}", "xml: {/a: 1}", "assert: [{regex: \"^(x)\", equals: x}]",
        "schema: {type: object}",
    ])
    func everyBodyCheckBesideEventsIsALoadError(_ check: String) {
        let found = errors(
            """
            tests:
              - name: e
                request: {url: "http://127.0.0.1:9/events/sse"}
                expect:
                  \(check)
                  events: {count: 3}
            """)
        #expect(found.contains { $0.contains("reads the response body") }, "\(check): \(found)")
    }

    @Test func checksThatDoNotReadTheBodyStayBesideEvents() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: e
                request: {url: "http://127.0.0.1:9/events/sse"}
                expect:
                  status: 200
                  headers: {Content-Type: {contains: event-stream}}
                  duration: {lessThan: 5s}
                  events: {count: 3, last: {json: {$.n: 2}}}
            """)
        #expect(suite.tests[0].steps[0].expect.events != nil)
    }

    // MARK: - graphql

    @Test func expectGraphQLWithoutAGraphQLRequestIsALocatedLoadError() {
        let found = errors(
            """
            tests:
              - name: g
                request: {method: POST, url: "http://127.0.0.1:9/echo", json: {a: 1}}
                expect: {graphql: {errors: {count: 0}}}
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("suites/test.yaml:4:23") == true, "\(found)")
        #expect(found.first?.contains("this request is not 'graphql:'") == true, "\(found)")
    }

    @Test func expectGraphQLOnAGraphQLRequestLoads() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: g
                request: {url: "http://127.0.0.1:9/graphql", graphql: {query: "{ a }"}}
                expect: {graphql: {errors: {count: 0}}}
            """)
        #expect(suite.tests[0].steps[0].expect.graphql?.errorsExpected == true)
    }
}

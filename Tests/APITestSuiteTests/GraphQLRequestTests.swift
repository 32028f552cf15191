import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `graphql:` request loading: the default method and the checks of `expect.graphql`.
@Suite("graphql requests")
struct GraphQLRequestTests {
    // MARK: - Method

    @Test func withoutAMethodTheOperationIsPostedAsJSON() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: q
                request:
                  url: http://127.0.0.1:9/graphql
                  graphql: {query: "mutation M($id: ID!) { del(id: $id) }", variables: {id: "{{ id }}"}}
            variables: {id: "1"}
            """)
        let request = suite.tests[0].steps[0].request
        #expect(request.method == "POST")
        #expect(request.query == nil)
        guard case .json = request.body else {
            Issue.record("no JSON body: \(String(describing: request.body))")
            return
        }
    }

    @Test func aWrittenGetSendsTheOperationAsTheQuery() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: q
                request: {method: get, url: http://127.0.0.1:9/graphql, graphql: {query: "{ a }"}}
            """)
        let request = suite.tests[0].steps[0].request
        #expect(request.method == "GET")
        #expect(request.body == nil)
        #expect(request.query != nil)
    }

    @Test func aWrittenMethodIsKept() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: q
                request: {method: PUT, url: http://127.0.0.1:9/graphql, graphql: {query: "{ a }"}}
            """)
        #expect(suite.tests[0].steps[0].request.method == "PUT")
    }
}

extension GraphQLRequestTests {
    // MARK: - Load errors

    @Test func aMissingFileIsReportedOnce() {
        let found = errors(
            """
            tests:
              - name: q
                request: {url: "http://127.0.0.1:9/graphql", graphql: {file: nope.graphql}}
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("nope.graphql") == true, "\(found)")
        #expect(!found.contains { $0.contains("needs a 'query' or a 'file'") }, "\(found)")
    }

    @Test func neitherQueryNorFileIsReported() {
        let found = errors(
            """
            tests:
              - name: q
                request: {url: "http://127.0.0.1:9/graphql", graphql: {variables: {a: 1}}}
            """)
        #expect(found.contains { $0.contains("'graphql' needs a 'query' or a 'file'") }, "\(found)")
    }
}

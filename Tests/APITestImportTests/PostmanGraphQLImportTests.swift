import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// Issue 40: a Postman collection (v2.1, as Postman exports it) whose request has a GraphQL body (`body.mode:
/// graphql`) becomes a `graphql:` request, which loads and is POSTed as the same JSON, its errors checked.
struct PostmanGraphQLImportTests {
    /// A collection as Postman 10 exports a GraphQL request: `body.graphql.query` and `variables` as JSON text.
    static let collection = #"""
        {
          "info": {
            "_postman_id": "5d3c1a9e-2b1f-4c7e-9a61-3f0f6a8e1c2d",
            "name": "GraphQL",
            "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
          },
          "item": [
            {
              "name": "user by id",
              "request": {
                "method": "POST",
                "header": [{"key": "Content-Type", "value": "application/json", "type": "text"}],
                "body": {
                  "mode": "graphql",
                  "graphql": {
                    "query": "query One($id: Int!) {\n  user(id: $id) { id name }\n}",
                    "variables": "{\n  \"id\": \"{{userId}}\"\n}"
                  }
                },
                "url": {"raw": "{{base}}/graphql", "host": ["{{base}}"], "path": ["graphql"]}
              },
              "response": []
            },
            {
              "name": "no variables",
              "request": {
                "method": "POST",
                "header": [],
                "body": {"mode": "graphql", "graphql": {"query": "{ users { id } }", "variables": ""}},
                "url": {"raw": "{{base}}/graphql", "host": ["{{base}}"], "path": ["graphql"]}
              },
              "response": []
            }
          ],
          "variable": [{"key": "base", "value": "http://127.0.0.1:9"}, {"key": "userId", "value": "1"}]
        }
        """#

    @Test func aGraphQLBodyBecomesAGraphQLRequest() throws {
        let decoded = try PostmanCollectionDecoder(file: "c.json").decode(Array(Self.collection.utf8))
        let document = PostmanImporter(collection: decoded, files: ["c.json"]).suite()
        guard case .graphql(let query, let variables)? = document.tests[0].request.body else {
            Issue.record("not a graphql body: \(String(describing: document.tests[0].request.body))")
            return
        }
        #expect(query == "query One($id: Int!) {\n  user(id: $id) { id name }\n}")
        #expect(variables == ["id": "{{ userId }}"])
        // The request's own Content-Type goes: a graphql request sets it.
        #expect(!document.tests[0].request.headers.contains { $0.name.lowercased() == "content-type" })
        guard case .graphql(_, let none)? = document.tests[1].request.body else {
            Issue.record("not a graphql body")
            return
        }
        #expect(none == nil)

        let (text, suite) = try SuiteDocumentRendererTests.load(document)
        #expect(text.contains("graphql:"), "\(text)")
        let request = suite.tests[0].steps[0].request
        #expect(request.isGraphQL)
        #expect(request.method == "POST")
    }
}

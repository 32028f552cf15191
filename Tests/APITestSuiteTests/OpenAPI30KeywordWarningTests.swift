import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// A suite whose OpenAPI 3.0 document uses a keyword 3.0 lacks loads with a warning at the keyword, in the
/// document, naming the document as the suite wrote it.
struct OpenAPI30KeywordWarningTests {
    @Test func aSuiteGetsTheDocumentsWarnings() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(
            """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, patternProperties: {'^n': {type: integer}}}
            """, to: "api.yaml", in: directory)
        let suite = try loadSuite(
            "openapi: api.yaml\ntests: [{name: t, request: {url: 'http://h/a'}}]\n", file: "\(directory)/s.yaml")
        #expect(
            suite.warnings.map(DiagnosticRenderer.oneLine) == [
                "\(directory)/api.yaml:11:38: warning: openapi 'api.yaml', at "
                    + "/paths/~1a/get/responses/200/content/application~1json/schema/patternProperties: "
                    + "'patternProperties' is not a keyword of "
                    + "OpenAPI 3.0's Schema Object: it is checked as JSON Schema 2020-12 (OpenAPI 3.1) defines it; "
                    + "declare openapi: 3.1.0 to use 2020-12 keywords as such"
            ])
    }
}

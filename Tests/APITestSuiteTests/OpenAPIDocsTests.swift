import APITestOpenAPI
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// docs/openapi.md: every YAML example in it loads, its contract included (against a document that declares what the
/// examples name), and the settings table lists the keys the loader accepts.
@Suite("docs/openapi.md")
struct OpenAPIDocsTests {
    static let documentation = Reference(
        (try? String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/openapi.md"), encoding: .utf8)) ?? "")

    /// What the examples name: `getPet`, `getMetrics`, `GET /health`, `/internal/debug`.
    static let spec = """
        openapi: 3.1.0
        info: {title: pets, version: "1"}
        servers: [{url: "https://staging.example.com/v2"}]
        paths:
          /pets/{id}:
            get:
              operationId: getPet
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                "200": {description: a pet, content: {application/json: {schema: {type: object}}}}
          /health:
            get: {responses: {"200": {description: up}}}
          /metrics:
            get: {operationId: getMetrics, responses: {"200": {description: metrics}}}
          /internal/debug:
            get: {responses: {"200": {description: debug}}}

        """

    @Test func everyYAMLExampleLoadsWithItsContract() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(Self.spec, to: "api/openapi.yaml", in: directory)
        let blocks = Self.documentation.yamlBlocks
        #expect(blocks.count >= 2, "only \(blocks.count) YAML examples")
        for (index, block) in blocks.enumerated() {
            let suite = try #require(
                SuiteFormatReferenceTests.suite(wrapping: block.text), "example at line \(block.line)")
            let file = "\(directory)/example-\(index).yaml"
            try suite.write(toFile: file, atomically: true, encoding: .utf8)
            do {
                let loaded = try SuiteLoader(environment: [:]).load(path: file)
                #expect(loaded.contract != nil, "the example at line \(block.line) names no contract")
                // Ignored operations are left out of the contract's operations (and so of checks and coverage).
                let ignored = loaded.openapi?.ignore.count ?? 0
                #expect(loaded.contract?.contract.operations.count == 4 - ignored, "\(block.text)")
            } catch {
                Issue.record("the example at line \(block.line) does not load:\n\(error.oneLineSummary)\n\(suite)")
            }
        }
    }

    @Test func theSettingsTableListsEveryKey() {
        for key in OpenAPISettingParser.keys {
            #expect(Self.documentation.lines.contains { $0.hasPrefix("| `\(key)` |") }, "\(key) is not in the table")
        }
    }
}

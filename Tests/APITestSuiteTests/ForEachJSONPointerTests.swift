import Foundation
import Testing

@testable import APITestSuite

/// A `forEach: {file: rows.json}` that does not parse says where, as the other JSON readers do: the position and,
/// beside it, the JSON Pointer of the element or member the error is in (a minified file's every position is on
/// line 1). The old message had only `line 1, column 30`.
@Suite struct ForEachJSONPointerTests {
    @Test func aRowsFileThatDoesNotParseNamesThePointer() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(#"[{"id": 1}, {"id": 2, "name": tru}]"#, to: "rows.json", in: directory)
        let suite = try writeFile(
            """
            name: rows
            baseURL: http://127.0.0.1:1/
            tests:
              - name: each
                forEach: {file: rows.json}
                request: {url: "x/{{ id }}"}
            """, to: "suite.yaml", in: directory)
        var thrown: SuiteLoadError?
        do {
            _ = try SuiteLoader(environment: [:]).load(path: suite)
        } catch {
            thrown = error
        }
        let messages = try #require(thrown).diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("is not valid JSON: line 1, column ") }, "\(messages)")
        #expect(messages.contains { $0.contains(", at /1/name: ") }, "\(messages)")
    }
}

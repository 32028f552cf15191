import Foundation
import Testing

@testable import APITestJSON

/// Runs the official JSONPath Compliance Test Suite (RFC 9535), parsed with our own JSON parser.
struct JSONPathComplianceTests {
    @Test func everyComplianceCasePasses() throws {
        let data = try Data(contentsOf: TestResources.complianceSuite)
        let suite = try JSONParser.parse(data)
        let cases = try #require(suite["tests"]?.arrayValue, "cts.json has no 'tests' array")
        #expect(cases.count > 600)

        var failures: [String] = []
        var passed = 0
        for testCase in cases {
            let name = testCase["name"]?.stringValue ?? "?"
            guard let selector = testCase["selector"]?.stringValue else {
                failures.append("\(name): no selector")
                continue
            }
            if let failure = Self.run(testCase, selector: selector) {
                failures.append("\(name)  [\(selector)]: \(failure)")
            } else {
                passed += 1
            }
        }
        print("JSONPath compliance: \(passed)/\(cases.count) cases passed")
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) failures:\n" + failures.joined(separator: "\n")))
    }

    /// nil when the case passes, else what went wrong.
    private static func run(_ testCase: JSONValue, selector: String) -> String? {
        let path: JSONPath
        do {
            path = try JSONPath(selector)
        } catch {
            return testCase["invalid_selector"] == .bool(true) ? nil : "rejected a valid selector: \(error)"
        }
        if testCase["invalid_selector"] == .bool(true) { return "accepted an invalid selector" }
        let document = testCase["document"] ?? .null
        let located = path.queryLocated(document)
        let values = located.map(\.value)
        let paths = located.map { JSONValue.string($0.path) }
        if path.query(document) != values { return "query and queryLocated disagree" }
        guard let tape = try? JSONTape(parsing: JSONWriter.bytes(document)) else {
            return "the tape rejects the document"
        }
        if tape.query(path) != values { return "the tape's query gives \(JSONValue.array(tape.query(path)))" }

        if let expected = testCase["result"]?.arrayValue {
            if values != expected { return "got \(JSONValue.array(values)), expected \(JSONValue.array(expected))" }
            if let expectedPaths = testCase["result_paths"]?.arrayValue, paths != expectedPaths {
                return "got paths \(JSONValue.array(paths)), expected \(JSONValue.array(expectedPaths))"
            }
            return nil
        }
        if let alternatives = testCase["results"]?.arrayValue {
            let pathAlternatives = testCase["results_paths"]?.arrayValue ?? []
            for (index, alternative) in alternatives.enumerated() where alternative.arrayValue == values {
                if index < pathAlternatives.count, pathAlternatives[index].arrayValue != paths { continue }
                return nil
            }
            return "got \(JSONValue.array(values)) at \(JSONValue.array(paths)), none of the allowed results"
        }
        return "case has neither result nor results"
    }
}

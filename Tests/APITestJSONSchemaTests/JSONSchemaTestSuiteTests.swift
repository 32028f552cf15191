import APITestJSON
import APITestJSONSchema
import Foundation
import Testing

/// Runs every non-optional file of the official JSON-Schema-Test-Suite for draft 2020-12 and draft-07, on each
/// instance as a value tree and as a tape over its JSON text, and holds the tape's quick check to the expected
/// verdict wherever it gives one.
struct JSONSchemaTestSuiteTests {
    @Test func draft2020_12() throws {
        try runSuite(folder: "draft2020-12", draft: .draft2020, minimumCount: 1000)
    }

    @Test func draft7() throws {
        try runSuite(folder: "draft7", draft: .draft7, minimumCount: 800)
    }

    private func runSuite(folder: String, draft: JSONSchemaDraft, minimumCount: Int) throws {
        let directory = TestResources.schemaTestSuite.appendingPathComponent("tests/\(folder)", isDirectory: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count > 30, "expected the suite's files in \(directory.path)")
        let resolver = DirectoryJSONSchemaResolver(baseURI: "http://localhost:1234/", directory: TestResources.remotes)

        var misses: [String] = []
        var total = 0
        var decided = 0
        for file in files {
            let groups = try JSONParser.parse(Data(contentsOf: directory.appendingPathComponent(file)))
            for group in groups.arrayValue ?? [] {
                let groupName = group["description"]?.stringValue ?? "?"
                let tests = group["tests"]?.arrayValue ?? []
                total += tests.count
                let schema: JSONSchema
                do {
                    schema = try JSONSchema(group["schema"] ?? .null, draft: draft, resolver: resolver)
                } catch {
                    for test in tests {
                        misses.append("\(file) | \(groupName) | \(test["description"]?.stringValue ?? "?"): \(error)")
                    }
                    continue
                }
                for test in tests {
                    let expected = test["valid"] == .bool(true)
                    let data = test["data"] ?? .null
                    let result = schema.validate(data)
                    let name = "\(file) | \(groupName) | \(test["description"]?.stringValue ?? "?")"
                    if result.isValid != expected || result.isValid != result.errors.isEmpty {
                        let detail = result.errors.map(\.description).joined(separator: "; ")
                        misses.append("\(name): expected \(expected ? "valid" : "invalid") [\(detail)]")
                    }
                    // The same instance read in place from its JSON text gives the same verdict and errors.
                    let tape = try JSONTape(parsing: JSONWriter.bytes(data))
                    let tapeResult = schema.validate(tape)
                    // The quick check that runs first, on a tape and on a value, is never wrong when it answers.
                    if let quick = schema.quickVerdict(tape) {
                        decided += 1
                        if quick != expected {
                            misses.append("\(name): the quick check says \(quick ? "valid" : "invalid")")
                        }
                    }
                    if let quick = schema.quickVerdict(data), quick != expected {
                        misses.append("\(name): the quick check of the value says \(quick ? "valid" : "invalid")")
                    }
                    // A string read from its bytes in place is accepted only when it is valid.
                    if case .string(var text) = data, text.withUTF8({ schema.acceptsASCIIString($0) }), !expected {
                        misses.append("\(name): the string's bytes read in place are accepted")
                    }
                    if tapeResult.isValid != result.isValid
                        || tapeResult.errors.map(\.description) != result.errors.map(\.description)
                    {
                        let detail = tapeResult.errors.map(\.description).joined(separator: "; ")
                        misses.append("\(name): on a tape, \(tapeResult.isValid ? "valid" : "invalid") [\(detail)]")
                    }
                }
            }
        }
        print("\(folder): \(total - misses.count)/\(total), \(decided) decided by the quick check")
        #expect(total >= minimumCount)
        // The quick check answers for most documents (those it leaves go to the evaluator), or it saves nothing.
        #expect(decided * 10 >= total * 7, "the quick check decided only \(decided) of \(total)")
        #expect(misses.isEmpty, Comment(rawValue: "\(misses.count) misses:\n" + misses.joined(separator: "\n")))
    }
}

import Foundation
import Testing

/// `schemas/apitest.schema.json` against the loader: the examples and the end-to-end cases are valid for both, and
/// a corpus of suites with one mistake each (`cases/schema-invalid`) is rejected by both.
///
/// The schema side runs `scripts/check-suite-schema.py` (Python's `jsonschema` on the YAML read by PyYAML with
/// the YAML 1.2 core schema), so it does not depend on apitest's own YAML reading; the loader side runs the built
/// `apitest validate`.
struct SuiteSchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("cases")
    static let schema = repository.appendingPathComponent("schemas/apitest.schema.json")
    static let includeSchema = repository.appendingPathComponent("schemas/apitest-include.schema.json")

    /// The `.yaml` files of a folder, sorted.
    static func suites(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// What the schema checker says of each file: `valid`, `invalid` or `unreadable`, by path.
    static func schemaVerdicts(
        _ files: [URL], schema: URL = schema
    ) async throws -> (verdicts: [String: String], output: ProcessResult) {
        let result = try await runProcess(
            try TestBinaries.tool("python3"),
            [repository.appendingPathComponent("scripts/check-suite-schema.py").path, schema.path] + files.map(\.path))
        var verdicts: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let verdict = String(line[..<space])
            var path = String(line[line.index(after: space)...])
            if let colon = path.range(of: ".yaml: ") { path = String(path[..<colon.lowerBound]) + ".yaml" }
            verdicts[path] = verdict
        }
        return (verdicts, result)
    }

    /// Runs `apitest validate` on `files` with the variables and environment the cases use.
    static func validate(_ files: [URL]) async throws -> ProcessResult {
        try await runProcess(
            try TestBinaries.url("apitest"), ["validate", "--var", "port=8080", "--no-color"] + files.map(\.path),
            environment: ["APITEST_CASE_SECRET": "secret", "NO_COLOR": "1"])
    }

    static var validSuites: [URL] {
        suites(in: repository.appendingPathComponent("examples")) + suites(in: cases.appendingPathComponent("passing"))
            + suites(in: cases.appendingPathComponent("failing"))
    }

    // MARK: - Valid suites

    @Test func schemaIsAValidDraft202012Schema() async throws {
        // Editors evaluate `pattern` as ECMA-262 (JavaScript) regular expressions: no inline flags or other
        // constructs only Python's `re` knows.
        let script = """
            import json, re, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            def patterns(node):
                if isinstance(node, dict):
                    for key, value in node.items():
                        if key == "pattern" and isinstance(value, str):
                            yield value
                        else:
                            yield from patterns(value)
                elif isinstance(node, list):
                    for item in node:
                        yield from patterns(item)
            found = list(patterns(schema))
            for pattern in found:
                re.compile(pattern)
                for construct in ["(?i", "(?s", "(?m", "(?x", "(?P", "(?#", "\\\\A", "\\\\Z", "(?<"]:
                    assert construct not in pattern, (construct, pattern)
            print(schema["$schema"], sorted(schema["properties"]), len(found) > 20)
            """
        let result = try await runProcess(try TestBinaries.tool("python3"), ["-c", script, Self.schema.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.stdout == "https://json-schema.org/draft/2020-12/schema ['baseURL', 'defaults', 'grpc', 'include', "
                + "'load', 'name', 'openapi', 'response', 'security', 'setup', 'teardown', 'tests', 'variables'] True\n"
        )
    }

    @Test func includedFilesMatchTheIncludeSchema() async throws {
        let files =
            Self.suites(in: Self.repository.appendingPathComponent("examples/shared"))
            + Self.suites(in: Self.cases.appendingPathComponent("shared"))
        #expect(files.count >= 5)
        let (verdicts, output) = try await Self.schemaVerdicts(files, schema: Self.includeSchema)
        for file in files {
            // cases/shared/bad-*.yaml hold mistakes on purpose (for the invalid cases).
            let expected = file.lastPathComponent.hasPrefix("bad-") ? "invalid" : "valid"
            #expect(verdicts[file.path] == expected, "\(file.lastPathComponent): \(output.stdout)")
        }
        // A suite is not an included file, and an included settings file is not a suite.
        let suite = Self.repository.appendingPathComponent("examples/users.yaml")
        #expect(try await Self.schemaVerdicts([suite], schema: Self.includeSchema).verdicts[suite.path] == "invalid")
        let shared = Self.repository.appendingPathComponent("examples/shared/demo.yaml")
        #expect(try await Self.schemaVerdicts([shared]).verdicts[shared.path] == "invalid")
    }

    @Test func examplesAndCasesMatchTheSchemaAndLoad() async throws {
        let files = Self.validSuites
        #expect(files.count >= 20, "found only \(files.count) suites")
        let (verdicts, output) = try await Self.schemaVerdicts(files)
        #expect(output.exitCode == 0, "\(output.stdout)\(output.stderr)")
        for file in files {
            #expect(verdicts[file.path] == "valid", "\(file.lastPathComponent): \(output.stdout)")
        }
        let loaded = try await Self.validate(files)
        #expect(loaded.exitCode == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.hasPrefix("\(files.count) suites, "), "\(loaded.stdout)")
        #expect(loaded.stdout.hasSuffix(": valid\n"))
    }

    @Test func everyExampleNamesTheSchemaForTheYAMLLanguageServer() throws {
        let examples = Self.repository.appendingPathComponent("examples")
        let files: [(URL, String)] =
            Self.suites(in: examples).map { ($0, "../schemas/apitest.schema.json") }
            + Self.suites(in: examples.appendingPathComponent("shared")).map {
                ($0, "../../schemas/apitest-include.schema.json")
            }
        #expect(files.count >= 3)
        for (file, schema) in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(
                text.hasPrefix("# yaml-language-server: $schema=\(schema)\n"),
                "\(file.lastPathComponent) does not start with the modeline")
        }
    }

    // MARK: - Invalid suites

    @Test func invalidCorpusIsRejectedByTheSchemaAndTheLoader() async throws {
        let files = Self.suites(in: Self.cases.appendingPathComponent("schema-invalid"))
        #expect(files.count >= 30, "the corpus has only \(files.count) suites")

        let (verdicts, output) = try await Self.schemaVerdicts(files)
        #expect(output.exitCode == 1, "\(output.stdout)\(output.stderr)")
        for file in files {
            #expect(verdicts[file.path] == "invalid", "the schema accepts \(file.lastPathComponent)")
        }

        let loaded = try await Self.validate(files)
        #expect(loaded.exitCode == 2, "\(loaded.stdout)\(loaded.stderr)")
        let diagnostics = ValidateOutput(loaded.stderr)
        #expect(diagnostics.unlocated.isEmpty, "errors without a location: \(diagnostics.unlocated)")
        let failed = Set(diagnostics.errors.map(\.file))
        for file in files {
            #expect(failed.contains(file.path), "the loader accepts \(file.lastPathComponent)")
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count
            for error in diagnostics.errors where error.file == file.path {
                #expect((1...lines + 1).contains(error.line) && error.column >= 1, "\(error)")
            }
        }
        #expect(diagnostics.summary?.files == files.count)
        #expect(diagnostics.summary?.errors == diagnostics.errors.count)
    }
}

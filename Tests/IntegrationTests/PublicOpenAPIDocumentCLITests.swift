import Foundation
import Testing

/// OpenAI's public document (issue 39 §4; 3.1 with 3.0's boolean `exclusiveMinimum` and `nullable`, refused before)
/// end to end: `generate openapi` writes suites from it and `run --openapi` checks responses against it, each printing
/// the document's warnings once, summarized, on standard error, with the reports intact; `--strict-spec` refuses it
/// with located errors and nothing generated or sent.
final class PublicOpenAPIDocumentCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let gzipped = repository.appendingPathComponent(
        "Tests/APITestOpenAPITests/Fixtures/public-documents/openai/openapi.yaml.gz")

    let folder: URL
    /// OpenAI's document, decompressed into ``folder``.
    let document: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-vendor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        document = folder.appendingPathComponent("openapi.yaml").path
        FileManager.default.createFile(atPath: document, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: document))
        defer { try? output.close() }
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gunzip.arguments = ["gunzip", "-c", Self.gzipped.path]
        gunzip.standardOutput = output
        try gunzip.run()
        gunzip.waitUntilExit()
        guard gunzip.terminationStatus == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "gunzip failed"])
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The warning lines of `stderr`: the summary's, each about the document.
    private func warningLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains(": warning: openapi '") }
    }

    /// The summary: a few warnings at their places, then the count of the rest of each kind, once.
    private func expectSummary(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = warningLines(stderr)
        #expect(
            lines.contains {
                $0.hasPrefix("\(document):35081:19: warning: openapi '")
                    && $0.hasSuffix(
                        "exclusiveMinimum: true is OpenAPI 3.0's form (3.1's is a number): read as 3.1's "
                            + "exclusiveMinimum with the value of minimum beside it")
            }, "\(stderr)", sourceLocation: sourceLocation)
        #expect(
            lines.filter { $0.hasSuffix("... and 108 more of kind nullable-in-3.1") }.count == 1, "\(stderr)",
            sourceLocation: sourceLocation)
        #expect(
            lines.filter { $0.hasSuffix("... and 6 more of kind boolean-exclusive-bound") }.count == 1, "\(stderr)",
            sourceLocation: sourceLocation)
        #expect(lines.count <= 5 * 3 + 3, "capped: \(lines.count) lines", sourceLocation: sourceLocation)
    }

    @Test func generateWritesSuitesWithTheWarningsOnStandardError() async throws {
        let output = folder.appendingPathComponent("suites").path
        let generated = try await runAPITest(["generate", "openapi", document, "-o", output])
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("wrote \(output)/models.yaml: 2 tests"), "\(generated.stdout)")
        #expect(!generated.stdout.contains("warning"))
        expectSummary(generated.stderr)
    }

    @Test func strictSpecRefusesTheDocumentAtItsPlaces() async throws {
        let output = folder.appendingPathComponent("strict").path
        let refused = try await runAPITest(["generate", "openapi", document, "-o", output, "--strict-spec"])
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.contains("--> \(document):40130:15"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "error: openapi '\(document)', at /components/schemas/FineTuneSupervisedHyperparameters/properties/"
                    + "learning_rate_multiplier/oneOf/1/exclusiveMinimum: exclusiveMinimum: true is OpenAPI 3.0's form"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("120 errors in \(document); nothing was generated."), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let suite = try write("baseURL: http://127.0.0.1:9\ntests: [{name: t, request: {url: /v1/models}}]\n")
        let run = try await runAPITest(["run", suite, "--openapi", document, "--strict-spec"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("nothing was run"), "\(run.stderr)")
    }

    @Test func runChecksResponsesAgainstTheDocumentWithIntactReports() async throws {
        let server = try FaultServer(script: "openai_models.py")
        defer { server.stop() }
        // Two suites name the document: its warnings are printed once.
        let first = try write(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: list models
                request: {url: /v1/models}
                expect: {status: 200}
            """, name: "list.yaml")
        let second = try write(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: broken model
                request: {url: /v1/models/broken}
                expect: {status: 200}
            """, name: "broken.yaml")
        let json = folder.appendingPathComponent("report.json").path
        let junit = folder.appendingPathComponent("junit.xml").path
        let run = try await runAPITest([
            "run", first, second, "--openapi", document, "--report-json", json, "--report-junit", junit,
        ])
        #expect(run.exitCode == 1, "\(run.stdout)\n\(run.stderr)")
        expectSummary(run.stderr)
        // The model without owned_by breaks the document's Model schema; the list passes.
        #expect(run.stdout.contains("owned_by"), "\(run.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report is [String: Any])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.contains("failures=\"1\""), "\(xml)")
        #expect(!xml.contains("warning: openapi"))
        #expect(server.receivedRequestLines.sorted() == ["GET /v1/models HTTP/1.1", "GET /v1/models/broken HTTP/1.1"])
    }

    private func write(_ text: String, name: String = "suite.yaml") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

import APITestJSON
import APITestOpenAPI
import APITestSupport
import Foundation
import Testing

@testable import APITestYAML

/// Vendors' large public documents (issue 39 §4), kept gzipped with their licences under
/// Tests/APITestOpenAPITests/Fixtures/public-documents (README.md there says where each comes from), load through
/// the reader suites and `generate` use, each with the warnings it deserves at their places, and `strictSpec`
/// refuses each with those warnings as errors. Before, OpenAI's was refused over its boolean `exclusiveMinimum`s and
/// Twilio's over JSON's escaped surrogate pairs (`"\ud83d\udc4d"`), which libyaml does not read.
@Suite("Public OpenAPI documents")
final class PublicOpenAPIDocumentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("APITestOpenAPITests/Fixtures/public-documents")

    /// One document and what its load must give.
    struct Document: Sendable, CustomStringConvertible {
        /// The gzipped file under ``fixtures``.
        var gzipped: String
        var version: String
        /// How many warnings of each kind.
        var counts: [String: Int]
        /// One warning: its pointer, line, column and kind.
        var example: (pointer: String, line: Int, column: Int, kind: OpenAPILoadProblem.Kind)

        var description: String { gzipped }
    }

    static let documents = [
        Document(
            gzipped: "openai/openapi.yaml.gz", version: "3.1.0",
            counts: ["nullable-in-3.1": 112, "boolean-exclusive-bound": 7, "unknown-format": 1],
            example: (
                "/components/schemas/FineTuneSupervisedHyperparameters/properties/learning_rate_multiplier/oneOf/1/"
                    + "exclusiveMinimum", 40130, 15,
                .booleanExclusiveBound(keyword: "exclusiveMinimum", value: true, bound: "minimum")
            )),
        Document(
            gzipped: "stripe/spec3.json.gz", version: "3.0.0", counts: ["unknown-format": 1],
            example: ("/components/schemas/account/properties/created/format", 48, 13, .unknownFormat("unix-time"))),
        Document(
            gzipped: "twilio/twilio_api_v2010.json.gz", version: "3.0.1", counts: ["unknown-format": 10],
            example: (
                "/components/schemas/api.v2010.account/properties/date_created/format", 26, 13,
                .unknownFormat("date-time-rfc-2822")
            )),
    ]

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-public-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The document `gzipped` decompressed into the test's folder (by gunzip); its path.
    func decompressed(_ gzipped: String) throws -> String {
        let target = folder.appendingPathComponent(
            (gzipped as NSString).lastPathComponent.replacingOccurrences(of: ".gz", with: ""))
        FileManager.default.createFile(atPath: target.path, contents: nil)
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gunzip", "-c", Self.fixtures.appendingPathComponent(gzipped).path]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gunzip \(gzipped) failed")
        return target.path
    }

    @Test(arguments: documents)
    func loadsWithItsWarnings(_ document: Document) throws {
        let path = try decompressed(document.gzipped)
        let start = ContinuousClock.now
        let contract: OpenAPIContract
        do {
            contract = try OpenAPIContract.load(
                path: path, options: OpenAPIContractOptions(), reader: OpenAPIYAMLReader())
        } catch {
            Issue.record("\(document) did not load:\n\(error)")
            return
        }
        // Reported, not asserted: a debug build on a shared machine.
        print("\(document): loaded in \(ContinuousClock.now - start), \(contract.operations.count) operations")
        #expect(contract.version == document.version)
        #expect(!contract.operations.isEmpty)
        #expect(contract.warnings.allSatisfy { $0.isWarning })
        let counts = Dictionary(grouping: contract.warnings, by: \.kindName).mapValues(\.count)
        #expect(counts == document.counts)
        let example = try #require(
            contract.warnings.first { $0.pointerText == document.example.pointer }, "no warning at the pointer")
        #expect(example.kind == document.example.kind)
        #expect(
            example.location == SourceLocation(file: path, line: document.example.line, column: document.example.column)
        )
    }

    @Test(arguments: documents)
    func strictSpecRefusesItWithTheSameWords(_ document: Document) throws {
        let path = try decompressed(document.gzipped)
        let warnings = try OpenAPIContract.load(
            path: path, options: OpenAPIContractOptions(), reader: OpenAPIYAMLReader()
        ).warnings
        do {
            _ = try OpenAPIContract.load(
                path: path, options: OpenAPIContractOptions(strictSpec: true), reader: OpenAPIYAMLReader())
            Issue.record("\(document) loaded with strictSpec")
        } catch {
            #expect(error.problems == warnings)
            let located = error.problems.first { $0.pointerText == document.example.pointer }
            #expect(located?.location.line == document.example.line)
        }
    }

    /// Twilio's document writes emoji as JSON's escaped surrogate pairs: read as the character, and the positions
    /// after one on its line are those of the text as written.
    @Test func escapedSurrogatePairsReadAsTheirCharacter() throws {
        let path = try decompressed("twilio/twilio_api_v2010.json.gz")
        let file = try OpenAPIYAMLReader().read(path)
        let messages = "/2010-04-01/Accounts/{AccountSid}/Messages.json"
        guard case .object(let root) = file.value, case .object(let paths) = root["paths"],
            case .object(let item) = paths[messages],
            case .object(let post) = item["post"], case .object(let responses) = post["responses"],
            case .object(let created) = responses["201"], case .object(let content) = created["content"],
            case .object(let json) = content["application/json"], case .object(let examples) = json["examples"],
            case .object(let create) = examples["create"], case .object(let value) = create["value"]
        else {
            Issue.record("the Messages example is not where it was")
            return
        }
        #expect(value["body"] == .string("Hello! \u{1F44D}"))
        let body = file.locate([
            "paths", messages, "post", "responses", "201", "content", "application/json",
            "examples", "create", "value", "body",
        ])
        #expect(body.line == 24352)
    }
}

import APITestOpenAPI
import APITestSuite
import APITestSuiteWriting
import APITestSupport
import APITestYAML
import Foundation
import Testing

@testable import APITestGenerate

/// Whole files: petstore-expanded's suite as written, and every generated file loading through the suite loader
/// with its contract.
struct SuiteGeneratorTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let petstore = root + "/examples/.openapi/petstore-expanded.yaml"

    /// The suites generated from `path` into `folder`, written there.
    func generate(
        _ path: String, into folder: String, grouping: SuiteGenerationOptions.Grouping = .tag, baseURL: String? = nil
    ) throws -> GeneratedSuites {
        let description: OpenAPIDescription
        switch OpenAPIDescriptionLoader.load(path: path) {
        case .success(let loaded): description = loaded
        case .failure(let error): throw error
        }
        let options = SuiteGenerationOptions(
            grouping: grouping, baseURL: baseURL, documentReference: RelativePath.from(directory: folder, to: path),
            schemaReference: "../schemas/apitest.schema.json", documentName: "petstore-expanded.yaml")
        let suites = SuiteGenerator(description: description, options: options).generate()
        _ = try SuiteFileWriter.write(suites.files.map { ($0.fileName, $0.text) }, to: folder, overwrite: false)
        return suites
    }

    /// The YAML block of docs/generate.md's example (after "`suites/default.yaml`:").
    static func documentedExample() throws -> String {
        let text = try String(contentsOfFile: root + "/docs/generate.md", encoding: .utf8)
        // The block follows the line, after the docs examples' marker (docs/development.md).
        let line = try #require(text.range(of: "`suites/default.yaml`:\n"))
        let fence = try #require(text[line.upperBound...].range(of: "```yaml\n"))
        let rest = text[fence.upperBound...]
        let end = try #require(rest.range(of: "```\n"))
        return String(rest[..<end.lowerBound])
    }

    @Test func petstoreExpandedAsDocumented() throws {
        // The layout of docs/generate.md's example: the document in api/, the suites in suites/.
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/api", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.petstore, toPath: folder + "/api/petstore-expanded.yaml")
        let suites = try generate(
            folder + "/api/petstore-expanded.yaml", into: folder + "/suites", baseURL: "http://127.0.0.1:8080/petstore")
        #expect(suites.files.map(\.fileName) == ["default.yaml"])
        #expect(suites.skipped.isEmpty)
        #expect(suites.environment.isEmpty)
        #expect(suites.files.first?.text == (try Self.documentedExample()))
        let suite = try SuiteLoader().load(path: folder + "/suites/default.yaml")
        #expect(suite.tests.map(\.name) == ["findPets", "find pet by id"])
        #expect(suite.teardown.map(\.name) == ["addPet", "deletePet"])
        #expect(suite.contract != nil)
    }

    @Test func theDocumentsServerWhenNoBaseURLIsGiven() throws {
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let suites = try generate(Self.petstore, into: folder, grouping: .path)
        #expect(suites.files.map(\.fileName) == ["pets.yaml"])
        let text = try #require(suites.files.first?.text)
        #expect(
            text.contains("name: Swagger Petstore (pets)\nbaseURL: https://petstore.swagger.io/v2\nopenapi:\n  file: "))
        #expect(!text.contains("\n  server:"))
        _ = try SuiteLoader().load(path: folder + "/pets.yaml")
    }

    @Test func aRelativeServerBecomesAVariable() throws {
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = folder + "/api.yaml"
        try """
        openapi: 3.1.0
        info: {title: Rel, version: "1"}
        servers: [{url: "/{version}", variables: {version: {default: v2}}}]
        paths:
          /things:
            get: {operationId: things, responses: {"200": {description: ok}}}
            post: {operationId: addThing, responses: {"2XX": {description: ok}, "4XX": {description: no}}}
            delete: {operationId: clear, responses: {default: {description: any}}}
            put:
              operationId: upload
              requestBody: {required: true, content: {application/octet-stream: {}}}
              responses: {"204": {description: ok}}
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let suites = try generate(spec, into: folder + "/suites")
        let text = try #require(suites.files.first?.text)
        #expect(text.contains("--var baseURL=<url>"))
        #expect(text.contains("variables:\n  baseURL: http://localhost/v2\nbaseURL: \"{{ baseURL }}\"\n"))
        #expect(text.contains("file: ../api.yaml\n"))
        #expect(text.contains("  # upload (PUT /things): skipped: the required body is application/octet-stream\n"))
        #expect(
            suites.skipped == [
                SkippedOperation(
                    name: "upload", methodAndPath: "PUT /things",
                    reason: "the required body is application/octet-stream", fileName: "default.yaml")
            ])
        let suite = try SuiteLoader().load(path: folder + "/suites/default.yaml")
        #expect(suite.tests.map(\.name) == ["things"])
        #expect(suite.tests.map { $0.steps.first?.expect.status?.patterns ?? [] } == [[.code(200)]])
        // The POST and the DELETE run after every test of the file, in that order, as teardown steps.
        #expect(suite.teardown.map(\.name) == ["addThing", "clear"])
        #expect(suite.teardown.map { $0.expect.status?.patterns ?? [] } == [[.codeClass(2)], [.codeClass(2)]])
    }

    @Test func existingFilesAreNotOverwritten() throws {
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "mine\n".write(toFile: folder + "/default.yaml", atomically: true, encoding: .utf8)
        #expect(throws: SuiteFileWriter.Failure(kind: .wouldOverwrite([folder + "/default.yaml"]), directory: folder)) {
            try generate(Self.petstore, into: folder)
        }
        #expect(try String(contentsOfFile: folder + "/default.yaml", encoding: .utf8) == "mine\n")
    }

    @Test func theEditorSchemaIsFoundAboveTheOutputFolder() throws {
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/project/tests/suites"
        #expect(EditorSchemaLocator.locate(from: output, executable: nil) == nil)
        try FileManager.default.createDirectory(atPath: folder + "/project/schemas", withIntermediateDirectories: true)
        try "{}".write(toFile: folder + "/project/schemas/apitest.schema.json", atomically: true, encoding: .utf8)
        let found = try #require(EditorSchemaLocator.locate(from: output, executable: nil))
        #expect(RelativePath.from(directory: output, to: found) == "../../schemas/apitest.schema.json")
        // A checkout's build folder: the schema of the checkout the executable was built in.
        let checkout = try #require(
            EditorSchemaLocator.locate(from: "/", executable: Self.root + "/.build/debug/apitest"))
        #expect(checkout == FilePaths.canonical(Self.root + "/schemas/apitest.schema.json"))
    }

    /// An installed apitest (`make install`, the Debian package) finds the schema it installed under its prefix.
    @Test func anInstalledApitestFindsTheSchemaUnderItsPrefix() throws {
        let folder = try GenerationFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let prefix = folder + "/usr"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/apitest", withIntermediateDirectories: true)
        try "".write(toFile: prefix + "/bin/apitest", atomically: true, encoding: .utf8)
        let output = folder + "/project/tests"
        #expect(EditorSchemaLocator.locate(from: output, executable: prefix + "/bin/apitest") == nil)
        try "{}".write(toFile: prefix + "/share/apitest/apitest.schema.json", atomically: true, encoding: .utf8)
        let found = try #require(EditorSchemaLocator.locate(from: output, executable: prefix + "/bin/apitest"))
        #expect(found == FilePaths.canonical(prefix + "/share/apitest/apitest.schema.json"))
        // A project's own copy comes first.
        try FileManager.default.createDirectory(atPath: folder + "/project/schemas", withIntermediateDirectories: true)
        try "{}".write(toFile: folder + "/project/schemas/apitest.schema.json", atomically: true, encoding: .utf8)
        let own = try #require(EditorSchemaLocator.locate(from: output, executable: prefix + "/bin/apitest"))
        #expect(own == FilePaths.canonical(folder + "/project/schemas/apitest.schema.json"))
    }

    @Test func relativePaths() {
        #expect(RelativePath.from(directory: "/work/suites", to: "/work/api/openapi.yaml") == "../api/openapi.yaml")
        #expect(RelativePath.from(directory: "/work", to: "/work/api.yaml") == "api.yaml")
        #expect(RelativePath.from(directory: "/a/b/c", to: "/x.yaml") == "../../../x.yaml")
        #expect(RelativePath.from(directory: "/", to: "/x/y.yaml") == "x/y.yaml")
    }
}

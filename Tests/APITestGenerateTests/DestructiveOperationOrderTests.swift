import APITestOpenAPI
import Foundation
import Testing

@testable import APITestGenerate

/// A `DELETE` shares a file with every operation on its path or below (the runner orders tests only within a
/// suite), and runs as a `teardown` step, after every test of the file.
struct DestructiveOperationOrderTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        paths:
          /pets:
            get: {operationId: listPets, tags: [read], responses: {"200": {description: ok}}}
          /pets/{petId}:
            parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
            get: {operationId: getPet, tags: [read], responses: {"200": {description: ok}}}
          /stores:
            get: {operationId: listStores, tags: [stores], responses: {"200": {description: ok}}}
          /pets/{id}/toys:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get: {operationId: toys, tags: [toys], responses: {"200": {description: ok}}}
          /pets/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            delete: {operationId: deletePet, tags: [write], responses: {"204": {description: gone}}}
        """

    @Test func aDeleteJoinsTheFilesOfWhatItReaches() throws {
        let description = try GenerationFixtures.describe(Self.document)
        let groups = OperationGrouping.groups(description.operations, by: .tag)
        // read (getPet), toys and write (deletePet) are one file, at read's place; stores is not reached.
        #expect(groups.map(\.fileName) == ["read.yaml", "stores.yaml"])
        #expect(
            groups.map { $0.operations.map { description.operations[$0].displayName } } == [
                ["listPets", "getPet", "toys", "deletePet"], ["listStores"],
            ])
    }

    @Test func theDeleteIsATeardownStepAfterTheTests() throws {
        let description = try GenerationFixtures.describe(Self.document)
        let options = SuiteGenerationOptions(
            grouping: .tag, baseURL: "http://127.0.0.1:1", documentReference: "api.yaml",
            schemaReference: "apitest.schema.json", documentName: "api.yaml")
        let suites = SuiteGenerator(description: description, options: options).generate()
        let text = try #require(suites.files.first?.text)
        let tests = try #require(text.range(of: "\ntests:\n"))
        let teardown = try #require(text.range(of: "\nteardown:\n  - name: deletePet\n"))
        #expect(tests.upperBound < teardown.lowerBound)
        #expect(text[tests.upperBound..<teardown.lowerBound].contains("- name: toys"))
        #expect(!text[tests.upperBound..<teardown.lowerBound].contains("DELETE"))
    }
}

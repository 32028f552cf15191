import APITestOpenAPI
import Foundation
import Testing

@testable import APITestGenerate

/// An operation that changes state (any method but GET, HEAD, OPTIONS, TRACE) shares a file with every operation on
/// a related path (the runner orders tests only within a suite), and runs as a `teardown` step, after every test of
/// the file, the writes in document order with the DELETEs last.
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

    static let writes = """
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        paths:
          /pets:
            get: {operationId: listPets, tags: [read], responses: {"200": {description: ok}}}
            post: {operationId: addPet, tags: [write], responses: {"201": {description: made}}}
          /pets/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get: {operationId: getPet, tags: [read], responses: {"200": {description: ok}}}
            delete: {operationId: deletePet, tags: [write], responses: {"204": {description: gone}}}
            put: {operationId: replacePet, tags: [write], responses: {"204": {description: replaced}}}
            patch: {operationId: renamePet, tags: [edit], responses: {"204": {description: renamed}}}
            head: {operationId: petExists, tags: [read], responses: {"200": {description: ok}}}
          /pets/mine:
            get: {operationId: myPets, tags: [mine], responses: {"200": {description: ok}}}
          /stores:
            get: {operationId: listStores, tags: [stores], responses: {"200": {description: ok}}}
            options: {operationId: storeOptions, tags: [stores], responses: {"200": {description: ok}}}
          /stores/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get: {operationId: getStore, tags: [stores], responses: {"200": {description: ok}}}
        """

    /// No operation that changes state is a concurrent test when the file has a safe one: every POST, PUT, PATCH
    /// and DELETE is a `teardown` step, in document order with the DELETE last; safe ones stay tests. The old
    /// renderer kept POST, PUT and PATCH as tests, running at the same time as the GETs they change.
    @Test(arguments: [SuiteGenerationOptions.Grouping.tag, .path])
    func noWriteIsAConcurrentTest(grouping: SuiteGenerationOptions.Grouping) throws {
        let description = try GenerationFixtures.describe(Self.writes)
        let options = SuiteGenerationOptions(
            grouping: grouping, baseURL: "http://127.0.0.1:1", documentReference: "api.yaml",
            schemaReference: "apitest.schema.json", documentName: "api.yaml")
        let suites = SuiteGenerator(description: description, options: options).generate()
        let pets = try #require(suites.files.first)
        #expect(pets.testNames == ["listPets", "getPet", "petExists", "myPets"])
        #expect(pets.teardownNames == ["addPet", "replacePet", "renamePet", "deletePet"])
        let tests = try #require(pets.text.range(of: "\ntests:\n"))
        let teardown = try #require(pets.text.range(of: "\nteardown:\n"))
        let testPart = pets.text[tests.upperBound..<teardown.lowerBound]
        for method in ["POST", "PUT", "PATCH", "DELETE"] { #expect(!testPart.contains("method: \(method)")) }
        // The stores are reached by no write: a file of their own, all tests.
        let stores = try #require(suites.files.last)
        #expect(suites.files.count == 2)
        #expect(stores.testNames == ["listStores", "storeOptions", "getStore"])
        #expect(stores.teardownNames.isEmpty && !stores.text.contains("teardown:"))
    }

    @Test func writesJoinTheFilesOfRelatedPaths() throws {
        let description = try GenerationFixtures.describe(Self.writes)
        let groups = OperationGrouping.groups(description.operations, by: .tag)
        // addPet (POST /pets) reaches /pets/{id} and /pets/mine; replacePet (PUT /pets/{id}) reaches /pets.
        #expect(groups.map(\.fileName) == ["read.yaml", "stores.yaml"])
        #expect(OperationGrouping.related(["pets", "{}"], ["pets"]))
        #expect(OperationGrouping.related(["pets", "{}"], ["pets", "mine", "toys"]))
        #expect(!OperationGrouping.related(["pets", "{}"], ["stores", "{}"]))
        #expect(
            !OperationGrouping.isSafe("POST") && !OperationGrouping.isSafe("PURGE") && OperationGrouping.isSafe("head"))
    }

    /// A file whose operations all change state: the first write (in the order they run) is its test, the others
    /// its teardown, so they still run one after another.
    @Test func aFileOfWritesOnlyRunsThemInOrder() throws {
        let description = try GenerationFixtures.describe(
            """
            openapi: 3.0.3
            info: {title: Shop, version: "1"}
            paths:
              /pets/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                delete: {operationId: deletePet, responses: {"204": {description: gone}}}
                put: {operationId: replacePet, responses: {"204": {description: replaced}}}
              /pets:
                post: {operationId: addPet, responses: {"201": {description: made}}}
            """)
        let options = SuiteGenerationOptions(
            grouping: .tag, baseURL: "http://127.0.0.1:1", documentReference: "api.yaml",
            schemaReference: "apitest.schema.json", documentName: "api.yaml")
        let suites = SuiteGenerator(description: description, options: options).generate()
        let file = try #require(suites.files.first)
        #expect(suites.files.count == 1)
        #expect(file.testNames == ["replacePet"])
        #expect(file.teardownNames == ["addPet", "deletePet"])
    }
}

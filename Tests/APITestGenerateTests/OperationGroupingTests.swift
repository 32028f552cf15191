import APITestOpenAPI
import Testing

@testable import APITestGenerate

/// Operations split into files by tag or path segment, and the files' names.
struct OperationGroupingTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        paths:
          /pets:
            get: {operationId: listPets, tags: [Pet Store, extra], responses: {"200": {description: ok}}}
          /pets/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get: {operationId: getPet, tags: [pet-store], responses: {"200": {description: ok}}}
          /:
            get: {operationId: root, responses: {"200": {description: ok}}}
          /{tenant}/orders:
            parameters: [{name: tenant, in: path, required: true, schema: {type: string}}]
            get: {operationId: orders, tags: [Pet Store], responses: {"200": {description: ok}}}
          /health:
            get: {operationId: health, tags: [default], responses: {"200": {description: ok}}}
        """

    @Test func byTagTheFirstTagUntaggedInDefault() throws {
        let description = try GenerationFixtures.describe(Self.document)
        let groups = OperationGrouping.groups(description.operations, by: .tag)
        #expect(groups.map(\.fileName) == ["pet-store.yaml", "pet-store-2.yaml", "default.yaml", "default-2.yaml"])
        #expect(groups.map(\.label) == ["Pet Store", "pet-store", nil, "default"])
        #expect(
            groups.map { $0.operations.map { description.operations[$0].displayName } } == [
                ["listPets", "orders"], ["getPet"], ["root"], ["health"],
            ])
    }

    @Test func byPathTheFirstSegment() throws {
        let description = try GenerationFixtures.describe(Self.document)
        let groups = OperationGrouping.groups(description.operations, by: .path)
        #expect(groups.map(\.fileName) == ["pets.yaml", "root.yaml", "tenant.yaml", "health.yaml"])
        #expect(groups[0].operations.count == 2)
    }

    @Test(arguments: [
        ("Pet Store", "pet-store"), ("  users/admin  ", "users-admin"), ("Über-API", "ber-api"), ("!!!", "suite"),
        ("v2.Orders_Items", "v2-orders-items"),
        (String(repeating: "ab-", count: 40), String(repeating: "ab-", count: 26) + "ab"),
    ])
    func slugs(_ text: String, _ expected: String) {
        #expect(OperationGrouping.slug(text) == expected)
    }
}

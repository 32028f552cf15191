import APITestOpenAPI
import Testing

/// The OpenAPI Initiative's example specs (Fixtures/oai-examples, copied verbatim) all load without a problem, in
/// YAML and in JSON, with the operations they declare.
struct OAIExamplesTests {
    /// Each example, its operations (`displayName`s in document order).
    static let examples: [(name: String, operations: [String])] = [
        ("v3.0/petstore", ["listPets", "createPets", "showPetById"]),
        ("v3.0/petstore-expanded", ["findPets", "addPet", "find pet by id", "deletePet"]),
        ("v3.0/api-with-examples", ["listVersionsv2", "getVersionDetailsv2"]),
        ("v3.0/callback-example", ["POST /streams"]),
        (
            "v3.0/link-example",
            [
                "getUserByName", "getRepositoriesByOwner", "getRepository", "getPullRequestsByRepository",
                "getPullRequestsById", "mergePullRequest",
            ]
        ),
        ("v3.0/uspto", ["list-data-sets", "list-searchable-fields", "perform-search"]),
        ("v3.1/webhook-example", []),
        ("v3.1/non-oauth-scopes", ["GET /users"]),
    ]

    @Test(arguments: examples.map(\.name), ["yaml", "json"])
    func loadsWithoutProblems(_ name: String, _ format: String) throws {
        let contract = try loadContract("\(Fixtures.oaiExamples)/\(name).\(format)")
        let expected = try #require(Self.examples.first { $0.name == name }).operations
        #expect(contract.operations.map(\.displayName) == expected)
        #expect(contract.version.hasPrefix(name.hasPrefix("v3.0") ? "3.0." : "3.1."))
    }

    @Test func petstoreRoutesAndChecks() throws {
        let contract = try loadContract("\(Fixtures.oaiExamples)/v3.0/petstore.yaml")
        // servers: http://petstore.swagger.io/v1; the host is not compared, the /v1 prefix is.
        guard
            case .operation(let show, let parameters) = contract.match(
                method: "GET", url: "http://localhost:8080/v1/pets/42")
        else {
            Issue.record("GET /v1/pets/42 did not match")
            return
        }
        #expect(show.operationId == "showPetById")
        #expect(parameters == ["petId": "42"])
        #expect(contract.match(method: "GET", url: "/pets/42") == .outsideServers)

        let good = ContractResponse(
            status: 200, headers: [("Content-Type", "application/json")],
            body: ContractDataBody(text: #"{"id": 42, "name": "Rex"}"#))
        #expect(contract.checkResponse(show, good) == ContractResponseCheck(responseKey: "200", violations: []))

        let wrong = ContractResponse(
            status: 200, headers: [("Content-Type", "application/json")], body: ContractDataBody(text: #"{"id": "42"}"#)
        )
        let check = contract.checkResponse(show, wrong)
        #expect(check.responseKey == "200")
        #expect(
            check.violations.map(\.message) == [
                #"(root): missing required property "name" (required at #/components/schemas/Pet/required)"#,
                "/id: must be integer, got string (type at #/components/schemas/Pet/properties/id/type)",
            ])
    }
}

import APITestJSON
import APITestJSONSchema
import Testing

@testable import APITestOpenAPI

/// Every schema a check uses is compiled when the document loads: checking compiles and reads nothing.
struct CompiledAtLoadTests {
    @Test func everySchemaOfEveryOperationIsCompiledAtLoad() throws {
        let reader = TestReader()
        let contract = try loadContract("\(Fixtures.oaiExamples)/v3.0/petstore-expanded.yaml", reader: reader)
        var declared = 0
        for operation in contract.table {
            for parameter in operation.parameters {
                #expect(parameter.schema != nil, "\(operation.operation.displayName) \(parameter.name)")
                declared += 1
            }
            for mediaType in operation.requestBody?.content ?? [] {
                #expect(mediaType.schema != nil)
                declared += 1
            }
            for response in operation.responses {
                for mediaType in response.content ?? [] {
                    #expect(mediaType.schema != nil, "\(operation.operation.displayName) \(response.key)")
                    declared += 1
                }
            }
        }
        // findPets: tags, limit, 200, default; addPet: body, 200, default; find pet by id: id, 200, default;
        // deletePet: id, default.
        #expect(declared == 12)
        let readsAfterLoad = reader.paths

        let find = try operation(contract, "findPets")
        for _ in 0..<100 {
            _ = contract.checkResponse(find, jsonResponse(200, #"[{"id": 1, "name": "a"}]"#))
            _ = contract.checkRequest(find, ContractRequest(method: "GET", url: "/api/pets?limit=x", headers: []))
        }
        #expect(reader.paths == readsAfterLoad)
    }

    @Test func aSharedComponentIsOneCompiledSchemaForBothDirections() throws {
        let contract = try inlineContract(
            """
            openapi: 3.0.3
            paths:
              /pets:
                post:
                  operationId: create
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
                  responses: {'201': {description: x, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}}
            components:
              schemas:
                Pet: {type: object, required: [id], properties: {id: {type: integer, readOnly: true}}}
            """)
        let create = try #require(contract.table.first)
        let request = try #require(create.requestBody?.content.first?.schema?.schema)
        let response = try #require(create.responses.first?.content?.first?.schema?.schema)
        #expect(request.requiredExemptions == ["readOnly"])
        #expect(response.requiredExemptions == ["writeOnly"])
        #expect(request.isValid([:]))
        #expect(!response.isValid([:]))
    }
}

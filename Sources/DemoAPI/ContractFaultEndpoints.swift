import HTTPTypes
import Hummingbird

// MARK: - ContractFaultEndpoints

/// `/contract-faults/...`: routes that break the contract examples/.openapi/openapi.yaml declares for them, each in
/// one way, so that end-to-end tests of the OpenAPI checks have a known mismatch to find. The spec describes what
/// they should do (tag `contract-faults`); everything else about each answer conforms.
enum ContractFaultEndpoints {
    static func routes() -> [Route] {
        [
            // Declared: 200 `{"id": integer, "name": string}`. Sends the id as a string.
            Route(["GET"], "/contract-faults/pets/{id}") { request in
                let text = request.parameters["id"] ?? ""
                guard let id = Int(text) else { throw DemoError.notFound("pet \(text) not found") }
                return Reply.json(["id": .string(String(id)), "name": "Fluffy"])
            },
            // Declared: 200 only, no `default`. Answers 418.
            Route(["GET"], "/contract-faults/teapot") { _ in
                Reply.error(Reply.status(418), "I'm a teapot")
            },
            // Declared: 200 `application/json`. Sends the same JSON text as `text/plain`.
            Route(["GET"], "/contract-faults/wrong-type") { _ in
                Reply.text("{\"message\":\"JSON sent as text/plain\"}", contentType: "text/plain; charset=utf-8")
            },
            // Declared: 200 with a required `X-Rate-Limit` header (an integer). Sends no such header.
            Route(["GET"], "/contract-faults/missing-header") { _ in
                Reply.json(["message": "no X-Rate-Limit header"])
            },
            // Declared like missing-header. Sends `X-Rate-Limit: lots`, which is not an integer.
            Route(["GET"], "/contract-faults/bad-header") { _ in
                var headers = HTTPFields()
                headers[rateLimit] = "lots"
                return Reply.json(["message": "X-Rate-Limit is not an integer"], headers: headers)
            },
            // Declared: 200 only, no `default`. Answers 500.
            Route(["GET"], "/contract-faults/crash") { _ in
                Reply.error(.internalServerError, "crashed on purpose")
            },
            // Declared: a required JSON body `{"quantity": integer}` and a required query parameter `channel`.
            // Checks neither: reads and discards whatever body comes and answers 201.
            Route(["POST"], "/contract-faults/orders") { request in
                await request.continueIfExpected()
                for try await _ in request.request.body {}
                return Reply.json(["accepted": true], status: .created)
            },
        ]
    }

    /// `X-Rate-Limit`, the response header the spec requires of missing-header and bad-header.
    static let rateLimit = HTTPField.Name("X-Rate-Limit")!
}

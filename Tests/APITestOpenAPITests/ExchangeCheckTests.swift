import APITestOpenAPI
import Testing

/// `checkExchange` (what the runner calls for every response) says what `match`, `checkResponse` and `checkRequest`
/// say one by one, routing the request once.
struct ExchangeCheckTests {
    private let yaml = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        servers: [{url: /v1}]
        paths:
          /pets/{id}:
            get:
              operationId: getPet
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
                - {name: limit, in: query, required: true, schema: {type: integer}}
              responses:
                '200':
                  description: a pet
                  content: {application/json: {schema: {type: object, required: [id], properties: {id: {type: integer}}}}}
          /internal:
            get: {operationId: internal, responses: {'200': {description: ok}}}
        """

    @Test(arguments: [
        ("GET", "http://h/v1/pets/7?limit=3", 200, #"{"id": 7}"#),
        ("GET", "http://h/v1/pets/x", 200, #"{"id": "7"}"#),
        ("GET", "http://h/v1/pets/7", 418, #"{}"#),
        ("GET", "http://h/v1/nowhere", 200, #"{}"#),
        ("GET", "http://h/other/pets/7", 200, #"{}"#),
        ("GET", "http://h/v1/internal", 200, ""),
        ("HEAD", "http://h/v1/pets/7?limit=1", 200, ""),
    ])
    func agreesWithTheSeparateChecks(_ method: String, _ url: String, _ status: Int, _ body: String) throws {
        let contract = try inlineContract(yaml, options: OpenAPIContractOptions(ignore: ["internal"]))
        let request = ContractRequest(method: method, url: url, headers: [])
        let response = ContractResponse(
            status: status, headers: [("Content-Type", "application/json")], body: ContractDataBody(text: body),
            requestMethod: method)
        let exchange = contract.checkExchange(request, response)
        let match = contract.match(method: method, url: url)
        #expect(exchange.match == match)
        if case .operation(let operation, _) = match {
            #expect(exchange.response == contract.checkResponse(operation, response))
            #expect(exchange.requestViolations == contract.checkRequest(operation, request))
        } else {
            #expect(exchange.response == nil)
            #expect(exchange.requestViolations.isEmpty)
        }
    }

    @Test func aBrokenExchangeIsReportedOnBothSides() throws {
        let contract = try inlineContract(yaml)
        let exchange = contract.checkExchange(
            ContractRequest(method: "GET", url: "/v1/pets/x", headers: []),
            jsonResponse(200, #"{"id": "7"}"#))
        #expect(exchange.response?.responseKey == "200")
        #expect(exchange.response?.violations.count == 1)
        // The path parameter is not an integer and the required query parameter is missing.
        #expect(exchange.requestViolations.count == 2, "\(exchange.requestViolations.map(\.message))")
    }
}

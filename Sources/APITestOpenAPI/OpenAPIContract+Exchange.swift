// MARK: - Checking an exchange

extension OpenAPIContract {
    /// Matches `request` to its operation and checks both `response` and `request` against it: what ``match(method:url:)``,
    /// ``checkResponse(_:_:)`` and ``checkRequest(_:_:)`` do, with the request routed once (the runner calls this
    /// for every response of a suite with a contract).
    package func checkExchange(_ request: ContractRequest, _ response: ContractResponse) -> ContractExchangeCheck {
        switch route(method: request.method, url: request.url) {
        case .found(let index, let values):
            let compiled = table[index]
            guard !compiled.isIgnored else {
                return ContractExchangeCheck(match: .ignored, response: nil, requestViolations: [])
            }
            let operation = compiled.operation
            return ContractExchangeCheck(
                match: .operation(operation, pathParameters: values.mapValues(\.decoded)),
                response: checkResponse(operation, response),
                requestViolations: checkRequest(operation, request, pathValues: values))
        case .notFound(let method, let path):
            return ContractExchangeCheck(
                match: .noOperation(method: method, path: path), response: nil, requestViolations: [])
        case .outside:
            return ContractExchangeCheck(match: .outsideServers, response: nil, requestViolations: [])
        }
    }
}

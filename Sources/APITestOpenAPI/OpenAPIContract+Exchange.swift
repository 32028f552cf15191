// MARK: - Checking an exchange

extension OpenAPIContract {
    /// Matches `request` to its operation and checks both `response` and `request` against it: what ``match(method:url:)``,
    /// ``checkResponse(_:_:)`` and ``checkRequest(_:_:)`` do, with the request routed once (the runner calls this
    /// for every response of a suite with a contract).
    ///
    /// - Parameter readsPathParameters: false leaves the match's `pathParameters` empty, for a caller that reads only
    ///   the operation (the runner): the checks still read the values they need.
    package func checkExchange(
        _ request: ContractRequest, _ response: ContractResponse, readsPathParameters: Bool = true
    ) -> ContractExchangeCheck {
        switch route(method: request.method, url: request.url) {
        case .found(let index, let path):
            // Fields read in place: a copy of the compiled operation retains all it holds.
            guard !table[index].isIgnored else {
                return ContractExchangeCheck(match: .ignored, response: nil, requestViolations: [])
            }
            let operation = table[index].operation
            let responseCheck = checkResponse(operation, response)
            let requestViolations = checkRequest(operation, request, path: path)
            let pathParameters = readsPathParameters ? path.values(of: table[index].template).mapValues(\.decoded) : [:]
            // The operation moved into the match, last: not copied a second time.
            return ContractExchangeCheck(
                match: .operation(consume operation, pathParameters: pathParameters), response: responseCheck,
                requestViolations: requestViolations)
        case .notFound(let method, let path):
            return ContractExchangeCheck(
                match: .noOperation(method: method, path: path), response: nil, requestViolations: [])
        case .outside:
            return ContractExchangeCheck(match: .outsideServers, response: nil, requestViolations: [])
        }
    }
}

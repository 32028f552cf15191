import APITestJSON

// MARK: - Checking a built request

extension OpenAPIDescription {
    /// What the contract finds wrong with a request to `operation`, as the runner would check it: `pathAndQuery` is
    /// the operation's path with its values and query, percent-encoded (`/pets/1?limit=2`), sent under the first of
    /// the document's servers (the longest path prefix).
    ///
    /// - Returns: the operation the request routes to instead (`displayName`), when it is not `operation` (a value
    ///   that makes `/pets/{id}` read as `/pets/mine`); else the contract's violations of the request.
    package func checkRequest(
        to operation: DescribedOperation, pathAndQuery: String, headers: [(name: String, value: String)],
        body: [UInt8]
    ) -> (routedTo: String?, violations: [ContractViolation]) {
        let prefix = contract.serverPrefixes.first ?? []
        let url = prefix.map { "/" + PercentEncoding.encodePath($0) }.joined() + pathAndQuery
        switch contract.match(method: operation.method, url: url) {
        case .operation(let matched, _) where matched.index == operation.operation.index:
            let request = ContractRequest(
                method: operation.method, url: url, headers: headers, body: ContractDataBody(body))
            return (nil, contract.checkRequest(operation.operation, request))
        case .operation(let matched, _):
            return (matched.displayName, [])
        case .ignored, .noOperation, .outsideServers:
            return ("no operation", [])
        }
    }
}

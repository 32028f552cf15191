package import APITestOpenAPI

/// What an operation's security asks of a request, and where credentials go.
package enum SecurityFacts {
    /// Whether every alternative of the operation's security needs a credential (none is `{}`), so that a request
    /// without any must be refused.
    package static func requiresCredentials(_ operation: DescribedOperation) -> Bool {
        !operation.security.isEmpty && operation.security.allSatisfy { !$0.schemes.isEmpty }
    }

    /// Where the credentials of `operation`'s schemes go: header names (lower case), query and cookie names.
    package static func carriers(
        of operation: DescribedOperation, schemes: [String: DescribedSecurityScheme]
    ) -> (headers: Set<String>, query: Set<String>, cookies: Set<String>) {
        var headers: Set<String> = []
        var query: Set<String> = []
        var cookies: Set<String> = []
        for requirement in operation.security {
            for name in requirement.schemes {
                guard let scheme = schemes[name] else { continue }
                switch scheme.type {
                case "apiKey":
                    guard let key = scheme.name else { continue }
                    switch scheme.location {
                    case "query": query.insert(key)
                    case "cookie": cookies.insert(key)
                    default: headers.insert(key.lowercased())
                    }
                default:
                    headers.insert("authorization")
                }
            }
        }
        return (headers, query, cookies)
    }

    /// A made-up credential for `operation`'s first scheme: a header or query pair, for `ignored_auth`.
    package static func bogusCredential(
        for operation: DescribedOperation, schemes: [String: DescribedSecurityScheme]
    ) -> (location: ContractViolation.ParameterLocation, name: String, value: String)? {
        guard let name = operation.security.first?.schemes.first, let scheme = schemes[name] else { return nil }
        switch scheme.type {
        case "apiKey":
            guard let key = scheme.name else { return nil }
            let location: ContractViolation.ParameterLocation =
                scheme.location == "query" ? .query : scheme.location == "cookie" ? .cookie : .header
            return (location, key, "apitest-fuzz-invalid-key")
        case "http" where scheme.scheme == "basic":
            return (.header, "Authorization", "Basic YXBpdGVzdDpmdXp6")
        default:
            return (.header, "Authorization", "Bearer apitest-fuzz-invalid-token")
        }
    }
}

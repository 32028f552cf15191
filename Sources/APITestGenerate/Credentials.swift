import APITestOpenAPI

/// What a request carries to satisfy an operation's security requirement: placeholders for credentials read from
/// the environment (`{{ env.API_KEY }}`), never values.
struct Credentials: Sendable {
    /// Header fields (`Authorization: Bearer {{ env.BEARER_AUTH }}`, an API key header).
    var headers: [(name: String, value: String)] = []
    /// Query parameters (an API key in the query).
    var query: [(name: String, value: String)] = []
    /// Cookies (`name=value`).
    var cookies: [String] = []
    /// HTTP basic authentication.
    var basicAuth: (username: String, password: String)?
    /// The environment variables named, in order.
    var environment: [String] = []
    /// What each placeholder stands for, for a comment above the test.
    var notes: [String] = []
    /// The parameters the credentials stand for (an API key also declared as a parameter), by place and name.
    var parameters: Set<String> = []

    /// Whether `parameter` is a credential these carry (so it is not generated).
    func covers(_ parameter: DescribedParameter) -> Bool {
        parameters.contains(Self.key(parameter.location.rawValue, parameter.name))
    }

    /// The key of a parameter in ``parameters``: header names compare case-insensitively.
    static func key(_ location: String, _ name: String) -> String {
        location == "header" ? "header " + name.lowercased() : location + " " + name
    }

    // MARK: - From the document

    /// The credentials of the first requirement of `operation` that apitest can satisfy with placeholders (an empty
    /// requirement needs none); the reason when none can be (a mutual-TLS scheme, an HTTP scheme other than basic
    /// and bearer, a scheme the document does not define).
    static func make(
        for operation: DescribedOperation, schemes: [String: DescribedSecurityScheme]
    ) -> Result<Credentials, GenerationFailure> {
        guard !operation.security.isEmpty else { return .success(Credentials()) }
        var firstProblem: String?
        requirements: for requirement in operation.security {
            var credentials = Credentials()
            for name in requirement.schemes {
                guard let scheme = schemes[name] else {
                    firstProblem = firstProblem ?? "its security scheme '\(name)' is not defined in the document"
                    continue requirements
                }
                if let problem = credentials.add(scheme, named: name) {
                    firstProblem = firstProblem ?? problem
                    continue requirements
                }
            }
            return .success(credentials)
        }
        return .failure(GenerationFailure(reason: firstProblem ?? "its security requirements cannot be met"))
    }

    /// Adds the placeholders of `scheme`; the reason when apitest cannot carry its credential.
    private mutating func add(_ scheme: DescribedSecurityScheme, named name: String) -> String? {
        let variable = Self.environmentName(name)
        switch scheme.type {
        case "http" where scheme.scheme == "bearer":
            headers.append(("Authorization", "Bearer {{ env.\(variable) }}"))
            use(variable, note: "\(variable): a bearer token for '\(name)'")
        case "http" where scheme.scheme == "basic":
            let (user, password) = (variable + "_USERNAME", variable + "_PASSWORD")
            basicAuth = ("{{ env.\(user) }}", "{{ env.\(password) }}")
            use(user, note: "\(user), \(password): the basic-auth credentials for '\(name)'")
            environment.append(password)
        case "http":
            return
                "its security scheme '\(name)' uses HTTP '\(scheme.scheme ?? "?")' authentication, which suites do not send"
        case "apiKey":
            guard let keyName = scheme.name, let place = scheme.location else {
                return "its security scheme '\(name)' does not say where its API key goes"
            }
            let placeholder = "{{ env.\(variable) }}"
            switch place {
            case "header": headers.append((keyName, placeholder))
            case "query": query.append((keyName, placeholder))
            case "cookie": cookies.append("\(keyName)=\(placeholder)")
            default: return "its security scheme '\(name)' puts its API key in '\(place)'"
            }
            parameters.insert(Self.key(place, keyName))
            use(variable, note: "\(variable): the API key for '\(name)' (\(place) \(keyName))")
        case "oauth2", "openIdConnect":
            headers.append(("Authorization", "Bearer {{ env.\(variable) }}"))
            use(variable, note: "\(variable): an access token for '\(name)' (\(scheme.type))")
        case "mutualTLS":
            return "its security scheme '\(name)' needs a client certificate, which suites do not send"
        default:
            return "its security scheme '\(name)' has the unknown type '\(scheme.type)'"
        }
        return nil
    }

    private mutating func use(_ variable: String, note: String) {
        if !environment.contains(variable) { environment.append(variable) }
        notes.append(note)
    }

    /// An environment variable's name for a security scheme: upper snake case (`petstore_auth` → `PETSTORE_AUTH`,
    /// `bearerAuth` → `BEARER_AUTH`), starting with a letter.
    static func environmentName(_ scheme: String) -> String {
        var result = ""
        var previous: Character?
        for character in scheme {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += "_" }
                result += character.uppercased()
            } else if !result.isEmpty && !result.hasSuffix("_") {
                result += "_"
            }
            previous = character
        }
        while result.hasSuffix("_") { result.removeLast() }
        if result.isEmpty { return "API_CREDENTIAL" }
        if let first = result.first, first.isNumber { return "API_" + result }
        return result
    }
}

import APITestJSON
import APITestJSONSchema
import APITestSupport

// MARK: - Checking requests

extension OpenAPIContract {
    /// Checks `request` against `operation`: its required parameters are present and every parameter's value
    /// matches its schema (read in its style), a required body is present, its `Content-Type` is declared, and a
    /// JSON body matches its media type's schema (where `readOnly` properties are not required).
    package func checkRequest(_ operation: OpenAPIOperation, _ request: ContractRequest) -> [ContractViolation] {
        var pathValues: [String: PathValue] = [:]
        if case .found(let index, let values) = route(method: request.method, url: request.url),
            index == operation.index
        {
            pathValues = values
        }
        return checkRequest(operation, request, pathValues: pathValues)
    }

    /// ``checkRequest(_:_:)`` with the path parameters' values already found by routing the request.
    func checkRequest(
        _ operation: OpenAPIOperation, _ request: ContractRequest, pathValues: [String: PathValue]
    )
        -> [ContractViolation]
    {
        let compiled = table[operation.index]
        var violations: [ContractViolation] = []
        // Read on first use: most operations have no query or cookie parameter, and this runs for every response.
        var queryPairs: [(name: String, value: Substring)]?
        var cookiePairs: [(name: String, value: Substring)]?
        for parameter in compiled.parameters {
            let value: JSONValue?
            switch parameter.location {
            case .path:
                guard let raw = pathValues[parameter.name] else {
                    // Routed elsewhere (the caller matched differently): nothing to check the path against.
                    continue
                }
                value =
                    parameter.isJSONContent
                    ? Self.json(raw.decoded)
                    : ParameterValues.path(
                        raw.raw, name: parameter.name, style: parameter.style, shape: parameter.shape,
                        explode: parameter.explode)
            case .query, .cookie:
                let pairs: [(name: String, value: Substring)]
                if parameter.location == .query {
                    if queryPairs == nil { queryPairs = ParameterValues.queryPairs(ServerURL.split(request.url).query) }
                    pairs = queryPairs ?? []
                } else {
                    if cookiePairs == nil {
                        cookiePairs = ParameterValues.cookiePairs(
                            request.headers.filter { $0.name.caseInsensitiveEquals("cookie") }.map(\.value))
                    }
                    pairs = cookiePairs ?? []
                }
                if parameter.isJSONContent {
                    value = pairs.first { $0.name == parameter.name }.map {
                        Self.json(PercentEncoding.decodeLeniently($0.value))
                    }
                } else {
                    value = ParameterValues.form(
                        pairs, name: parameter.name, style: parameter.style, explode: parameter.explode,
                        shape: parameter.shape, otherNames: parameter.siblingNames)
                }
            case .header:
                let values = request.headers.filter { $0.name.caseInsensitiveEquals(parameter.name) }.map(\.value)
                if values.isEmpty {
                    value = nil
                } else if parameter.isJSONContent {
                    value = Self.json(values.joined(separator: ", "))
                } else {
                    value = ParameterValues.header(
                        values.joined(separator: ","), shape: parameter.shape, explode: parameter.explode)
                }
            }
            guard let value else {
                if parameter.isRequired {
                    violations.append(
                        ContractViolation(
                            kind: .missingParameter(parameter.name, in: parameter.location), subject: .request,
                            operation: operation, instancePath: "\(parameter.location.rawValue) \(parameter.name)",
                            specLocation: tracer.location(of: parameter.declaration)))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            appendSchemaErrors(
                schema.schema.validate(value, maximumErrors: 20), schema: schema,
                prefix: "\(parameter.location.rawValue) \(parameter.name)", subject: .request, operation: operation,
                responseKey: nil, &violations)
        }
        if let body = compiled.requestBody, !body.content.isEmpty, body.isRequired || !request.body.isEmpty {
            checkBody(
                request.body, contentType: Self.header("content-type", in: request.headers), content: body.content,
                declaration: body.declaration, subject: .request, operation: operation, responseKey: nil, &violations)
        }
        return violations
    }

    /// `text` parsed as JSON, else the string.
    private static func json(_ text: String) -> JSONValue {
        (try? JSONParser.parse(text)) ?? .string(text)
    }
}

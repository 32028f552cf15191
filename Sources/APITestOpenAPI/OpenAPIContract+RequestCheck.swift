import APITestJSON
import APITestJSONSchema
import APITestSupport

// MARK: - Checking requests

extension OpenAPIContract {
    /// Checks `request` against `operation`: its required parameters are present and every parameter's value
    /// matches its schema (read in its style), a required body is present, its `Content-Type` is declared, and a
    /// JSON body matches its media type's schema (where `readOnly` properties are not required).
    package func checkRequest(_ operation: OpenAPIOperation, _ request: ContractRequest) -> [ContractViolation] {
        var routed: RoutedPath?
        if case .found(let index, let path) = route(method: request.method, url: request.url),
            index == operation.index
        {
            routed = path
        }
        return checkRequest(operation, request, path: routed)
    }

    /// ``checkRequest(_:_:)`` with the path the request was routed by (nil when it routed elsewhere).
    func checkRequest(
        _ operation: OpenAPIOperation, _ request: ContractRequest, path: RoutedPath?
    )
        -> [ContractViolation]
    {
        // The operation's parts read in place: a copy of the whole compiled operation, or of each parameter,
        // retains every field it holds (this runs for every response).
        let parameters = table[operation.index].parameters
        var violations: [ContractViolation] = []
        // Read on first use: most operations have no query or cookie parameter, and this runs for every response.
        var queryPairs: [(name: String, value: Substring)]?
        var cookiePairs: [(name: String, value: Substring)]?
        parameters.withUnsafeBufferPointer { parameters in
            for position in parameters.indices {
                checkParameter(
                    parameters[position], of: operation, request, path: path, queryPairs: &queryPairs,
                    cookiePairs: &cookiePairs, &violations)
            }
        }
        if let body = table[operation.index].requestBody, !body.content.isEmpty,
            body.isRequired || !request.body.isEmpty
        {
            checkBody(
                request.body, contentType: request.fields.first(named: "content-type"), content: body.content,
                declaration: body.declaration, subject: .request, operation: operation, responseKey: nil, &violations)
        }
        return violations
    }

    /// Checks one parameter of `operation` in `request`: present when required, its value against its schema.
    private func checkParameter(
        _ parameter: borrowing CompiledParameter, of operation: OpenAPIOperation, _ request: ContractRequest,
        path: RoutedPath?, queryPairs: inout [(name: String, value: Substring)]?,
        cookiePairs: inout [(name: String, value: Substring)]?, _ violations: inout [ContractViolation]
    ) {
        let value: JSONValue?
        switch parameter.location {
        case .path:
            if let segment = parameter.scalarPathSegment, let path, segment < path.decoded.count {
                // The whole segment, as routed (percent-decoded as `ParameterValues.path` reads a scalar).
                value = parameter.shape.scalar(String(path.decoded[path.decoded.startIndex + segment]))
                break
            }
            guard let raw = path?.value(named: parameter.name, of: table[operation.index].template) else {
                // Routed elsewhere (the caller matched differently): nothing to check the path against.
                return
            }
            if parameter.isJSONContent {
                value = Self.json(raw.decoded)
            } else if parameter.style != "label", parameter.style != "matrix", !parameter.shape.isContainer {
                // A scalar in `simple` style: the value as sent, percent-decoded (what `ParameterValues.path` reads
                // it as, without splitting it into the parts a list would have).
                value = parameter.shape.scalar(PercentEncoding.decodeLeniently(raw.raw))
            } else {
                value = ParameterValues.path(
                    raw.raw, name: parameter.name, style: parameter.style, shape: parameter.shape,
                    explode: parameter.explode)
            }
        case .query, .cookie:
            let pairs: [(name: String, value: Substring)]
            if parameter.location == .query {
                if queryPairs == nil { queryPairs = ParameterValues.queryPairs(ServerURL.split(request.url).query) }
                pairs = queryPairs ?? []
            } else {
                if cookiePairs == nil {
                    cookiePairs = ParameterValues.cookiePairs(
                        request.fields.values(named: "cookie"))
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
            let values = request.fields.values(named: parameter.name)
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
            return
        }
        guard let schema = parameter.schema else { return }
        appendSchemaErrors(
            schema.schema.validate(value, maximumErrors: 20), schema: schema,
            prefix: "\(parameter.location.rawValue) \(parameter.name)", subject: .request, operation: operation,
            responseKey: nil, &violations)
    }

    /// `text` parsed as JSON, else the string.
    private static func json(_ text: String) -> JSONValue {
        (try? JSONParser.parse(text)) ?? .string(text)
    }
}

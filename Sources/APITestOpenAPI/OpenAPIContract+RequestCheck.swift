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
                    parameters.baseAddress! + position, of: operation, request, path: path, queryPairs: &queryPairs,
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
    ///
    /// The parameter is read where the compiled operation holds it: a borrowed value captured by the closures here
    /// (the message's prefix) was copied, every field retained, for every request.
    private func checkParameter(
        _ parameter: UnsafePointer<CompiledParameter>, of operation: OpenAPIOperation, _ request: ContractRequest,
        path: RoutedPath?, queryPairs: inout [(name: String, value: Substring)]?,
        cookiePairs: inout [(name: String, value: Substring)]?, _ violations: inout [ContractViolation]
    ) {
        let value: JSONValue?
        switch parameter.pointee.location {
        case .path:
            if let segment = parameter.pointee.scalarPathSegment, let path, segment < path.decoded.count {
                // The whole segment, as routed (percent-decoded as `ParameterValues.path` reads a scalar).
                let text = path.decoded[path.decoded.startIndex + segment]
                // Read as a string that its schema accepts from its bytes in place: valid, so nothing to report and
                // no value to make (this runs for every request to an operation with a path parameter).
                if parameter.pointee.shape.readsTextAsString, let schema = parameter.pointee.schema,
                    Self.accepts(schema, text)
                {
                    return
                }
                value = parameter.pointee.shape.scalar(String(text))
                break
            }
            guard let raw = path?.value(named: parameter.pointee.name, of: table[operation.index].template) else {
                // Routed elsewhere (the caller matched differently): nothing to check the path against.
                return
            }
            if parameter.pointee.isJSONContent {
                value = Self.json(raw.decoded)
            } else if parameter.pointee.style != "label", parameter.pointee.style != "matrix",
                !parameter.pointee.shape.isContainer
            {
                // A scalar in `simple` style: the value as sent, percent-decoded (what `ParameterValues.path` reads
                // it as, without splitting it into the parts a list would have).
                value = parameter.pointee.shape.scalar(PercentEncoding.decodeLeniently(raw.raw))
            } else {
                value = ParameterValues.path(
                    raw.raw, name: parameter.pointee.name, style: parameter.pointee.style,
                    shape: parameter.pointee.shape,
                    explode: parameter.pointee.explode)
            }
        case .query, .cookie:
            let pairs: [(name: String, value: Substring)]
            if parameter.pointee.location == .query {
                if queryPairs == nil { queryPairs = ParameterValues.queryPairs(ServerURL.split(request.url).query) }
                pairs = queryPairs ?? []
            } else {
                if cookiePairs == nil {
                    cookiePairs = ParameterValues.cookiePairs(
                        request.fields.values(named: "cookie"))
                }
                pairs = cookiePairs ?? []
            }
            if parameter.pointee.isJSONContent {
                value = pairs.first { $0.name == parameter.pointee.name }.map {
                    Self.json(PercentEncoding.decodeLeniently($0.value))
                }
            } else {
                value = ParameterValues.form(
                    pairs, name: parameter.pointee.name, style: parameter.pointee.style,
                    explode: parameter.pointee.explode,
                    shape: parameter.pointee.shape, otherNames: parameter.pointee.siblingNames)
            }
        case .header:
            let values = request.fields.values(named: parameter.pointee.name)
            if values.isEmpty {
                value = nil
            } else if parameter.pointee.isJSONContent {
                value = Self.json(values.joined(separator: ", "))
            } else {
                value = ParameterValues.header(
                    values.joined(separator: ","), shape: parameter.pointee.shape, explode: parameter.pointee.explode)
            }
        }
        guard let value else {
            if parameter.pointee.isRequired {
                violations.append(
                    ContractViolation(
                        kind: .missingParameter(parameter.pointee.name, in: parameter.pointee.location),
                        subject: .request,
                        operation: operation,
                        instancePath: "\(parameter.pointee.location.rawValue) \(parameter.pointee.name)",
                        specLocation: tracer.location(of: parameter.pointee.declaration)))
            }
            return
        }
        guard let schema = parameter.pointee.schema else { return }
        appendSchemaErrors(
            schema.schema.validate(value, maximumErrors: 20), schema: schema,
            prefix: "\(parameter.pointee.location.rawValue) \(parameter.pointee.name)", subject: .request,
            operation: operation,
            responseKey: nil, &violations)
    }

    /// Whether `schema` accepts the string `text` from its bytes in place (``JSONSchema/acceptsASCIIString(_:)``):
    /// true only where validating `.string(text)` finds it valid.
    private static func accepts(_ schema: CompiledSchemaReference, _ text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { schema.schema.acceptsASCIIString($0) } ?? false
    }

    /// `text` parsed as JSON, else the string.
    private static func json(_ text: String) -> JSONValue {
        (try? JSONParser.parse(text)) ?? .string(text)
    }
}

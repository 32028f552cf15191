import APITestJSON
import APITestOpenAPI
import APITestSuiteWriting

// MARK: - Putting a request together

extension OperationPlanner {
    /// A request with the chosen values: as the suite writes it, and as it goes on the wire (for the contract's
    /// check).
    struct AssembledRequest {
        /// The suite's request.
        var request: SuiteDocument.Request
        /// The operation's path with its values and query (`/pets/1?limit=2`), credentials included.
        var pathAndQuery: String
        /// The header fields sent, the body's `Content-Type` and the cookies included.
        var wireHeaders: [(name: String, value: String)]
        /// The body's bytes.
        var bodyBytes: [UInt8]
    }

    /// The request with the candidate `choices[i]` of each part.
    func assemble(
        _ operation: DescribedOperation, parts: [Part], choices: [Int], credentials: Credentials
    ) -> AssembledRequest {
        var pathValues: [String: String] = [:]
        var queryPairs: [String] = []
        var headers: [(name: String, value: String)] = []
        var cookies: [String] = []
        var body: SuiteDocument.Body?
        for (part, choice) in zip(parts, choices) {
            let value = part.candidates[choice].value
            switch part.kind {
            case .parameter(let parameter):
                let styled = parameter.contentType == nil
                let json = JSONWriter.string(value)
                switch parameter.location {
                case .path:
                    pathValues[parameter.name] =
                        styled
                        ? ParameterSerializer.path(
                            value, name: parameter.name, style: parameter.style, explode: parameter.explode)
                        : ParameterSerializer.encodePathValue(json)
                case .query:
                    queryPairs +=
                        styled
                        ? ParameterSerializer.query(
                            value, name: parameter.name, style: parameter.style, explode: parameter.explode)
                        : [
                            ParameterSerializer.encodeComponent(parameter.name) + "="
                                + ParameterSerializer.encodeComponent(json)
                        ]
                case .header:
                    headers.append(
                        (parameter.name, styled ? ParameterSerializer.header(value, explode: parameter.explode) : json))
                case .cookie:
                    cookies.append(
                        styled
                            ? ParameterSerializer.cookie(value, name: parameter.name, explode: parameter.explode)
                            : "\(parameter.name)=\(json)")
                }
            case .body(_, let encoding):
                switch encoding {
                case .json: body = .json(value)
                case .jsonText(let contentType): body = .text(JSONWriter.string(value), contentType: contentType)
                case .form: body = .form((Self.formFields(value) ?? JSONObject()).members.map { ($0.key, $0.value) })
                case .text(let contentType): body = .text(value.stringValue ?? "", contentType: contentType)
                }
            }
        }
        headers += credentials.headers
        cookies += credentials.cookies
        if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }

        let path = Self.path(operation.pathTemplate, values: pathValues)
        let query = queryPairs.joined(separator: "&")
        var request = SuiteDocument.Request(method: operation.method, url: Self.relativeURL(path, query: query))
        request.query = credentials.query
        for (name, value) in headers {
            // A parameter and a credential of the same header: one field (the suite's headers are a map), values
            // joined.
            if let index = request.headers.firstIndex(where: { $0.name == name }) {
                request.headers[index].value += ", " + value
            } else {
                request.headers.append(SuiteDocument.Header(name, value))
            }
        }
        request.basicAuth = credentials.basicAuth
        request.body = body

        var wireQuery = queryPairs
        for (name, value) in credentials.query {
            wireQuery.append(
                ParameterSerializer.encodeComponent(name) + "=" + ParameterSerializer.encodeComponent(value))
        }
        var wireHeaders = headers
        var bytes: [UInt8] = []
        switch body {
        case .json(let value):
            wireHeaders.append(("Content-Type", "application/json"))
            bytes = JSONWriter.bytes(value)
        case .text(let text, let contentType):
            if let contentType { wireHeaders.append(("Content-Type", contentType)) }
            bytes = Array(text.utf8)
        case .form(let fields):
            wireHeaders.append(("Content-Type", "application/x-www-form-urlencoded"))
            let pairs = fields.map {
                ParameterSerializer.encodeComponent($0.name) + "="
                    + ParameterSerializer.encodeComponent(ParameterSerializer.text($0.value))
            }
            bytes = Array(pairs.joined(separator: "&").utf8)
        case .file, .multipart, .graphql, nil:
            // The planner skips operations whose body is a file or parts.
            break
        }
        let pathAndQuery = path + (wireQuery.isEmpty ? "" : "?" + wireQuery.joined(separator: "&"))
        return AssembledRequest(
            request: request, pathAndQuery: pathAndQuery, wireHeaders: wireHeaders, bodyBytes: bytes)
    }

    /// The path template with each `{name}` replaced by its written value (left as written when there is none) and
    /// its literal text percent-encoded where a path needs it.
    static func path(_ template: String, values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += ParameterSerializer.encodePathLiteral(String(rest[..<open]))
            let name = String(rest[rest.index(after: open)..<close])
            result += values[name] ?? ParameterSerializer.encodePathLiteral("{\(name)}")
            rest = rest[rest.index(after: close)...]
        }
        return result + ParameterSerializer.encodePathLiteral(String(rest))
    }

    /// The URL a suite writes for `path` (from the root of the API) and `query`: relative to `baseURL`, so without
    /// the leading `/` (`pets/1?limit=2`); `./` when the path is the root, or when its first segment has a `:` (it
    /// would read as a scheme).
    static func relativeURL(_ path: String, query: String) -> String {
        var relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let firstSegment = relative.prefix { $0 != "/" }
        if relative.isEmpty || firstSegment.contains(":") { relative = "./" + relative }
        return query.isEmpty ? relative : relative + "?" + query
    }
}

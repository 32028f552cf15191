import APITestJSON
import APITestJSONSchema
import APITestSupport

// MARK: - Checking responses

extension OpenAPIContract {
    /// Checks `response` against `operation`'s `responses`: the status is declared (exact code, then range, then
    /// `default`); the required headers are present and match their schemas; the `Content-Type` is declared (an
    /// exact type, then `type/*`, then `*/*`); a JSON body matches its media type's schema.
    ///
    /// An operation without `responses` (OpenAPI 3.1 allows it) constrains nothing. An entry without `content`
    /// leaves the body unchecked; an empty body is fine for 204, 304 and a `HEAD`.
    package func checkResponse(_ operation: OpenAPIOperation, _ response: ContractResponse) -> ContractResponseCheck {
        // Fields read in place: a copy of the compiled operation retains all it holds.
        guard table[operation.index].declaresResponses else {
            return ContractResponseCheck(responseKey: nil, violations: [])
        }
        guard let entry = table[operation.index].response(for: response.status) else {
            let violation = ContractViolation(
                kind: .undeclaredStatus(response.status, declared: operation.responseKeys), subject: .response,
                operation: operation, specLocation: tracer.location(of: table[operation.index].responsesLocation))
            return ContractResponseCheck(responseKey: nil, violations: [violation])
        }
        var violations: [ContractViolation] = []
        checkHeaders(entry, response.fields, operation, &violations)
        if let content = entry.content, !content.isEmpty {
            let bodyless =
                response.status == 204 || response.status == 304
                || response.requestMethod?.caseInsensitiveEquals("HEAD") == true
            if !(bodyless && response.body.isEmpty) {
                checkBody(
                    response.body, contentType: response.fields.first(named: "content-type"), content: content,
                    declaration: entry.declaration, subject: .response, operation: operation, responseKey: entry.key,
                    &violations)
            }
        }
        return ContractResponseCheck(responseKey: entry.key, violations: violations)
    }

    private func checkHeaders(
        _ entry: CompiledResponse, _ headers: any ContractHeaderFields, _ operation: OpenAPIOperation,
        _ violations: inout [ContractViolation]
    ) {
        for header in entry.headers {
            let values = headers.values(named: header.name)
            guard !values.isEmpty else {
                if header.isRequired {
                    violations.append(
                        ContractViolation(
                            kind: .missingHeader(header.name), subject: .response, operation: operation,
                            responseKey: entry.key, instancePath: "header \(header.name)",
                            specLocation: tracer.location(of: header.declaration)))
                }
                continue
            }
            guard let schema = header.schema else { continue }
            let value: JSONValue
            if header.isJSONContent {
                value =
                    (try? JSONParser.parse(values.joined(separator: ", "))) ?? .string(values.joined(separator: ", "))
            } else {
                value = ParameterValues.header(
                    values.joined(separator: ","), shape: header.shape, explode: header.explode)
            }
            appendSchemaErrors(
                schema.schema.validate(value, maximumErrors: 20), schema: schema, prefix: "header \(header.name)",
                subject: .response, operation: operation, responseKey: entry.key, &violations)
        }
    }

    // MARK: - Bodies

    /// Checks a body against declared `content`: present, its `Content-Type` declared, JSON against the schema.
    func checkBody(
        _ body: any ContractBody, contentType: String?, content: [CompiledMediaType], declaration: SpecLocation,
        subject: ContractViolation.Subject, operation: OpenAPIOperation, responseKey: String?,
        _ violations: inout [ContractViolation]
    ) {
        // Named only in a violation: a body that holds builds no list.
        var declared: [String] { content.map(\.key) }
        guard !body.isEmpty else {
            violations.append(
                ContractViolation(
                    kind: .missingBody(declared: declared), subject: subject, operation: operation,
                    responseKey: responseKey, specLocation: tracer.location(of: declaration)))
            return
        }
        guard let contentType, !contentType.isBlank else {
            violations.append(
                ContractViolation(
                    kind: .missingContentType(declared: declared), subject: subject, operation: operation,
                    responseKey: responseKey, instancePath: "header Content-Type",
                    specLocation: tracer.location(of: declaration)))
            return
        }
        let mediaType: CompiledMediaType
        // nil: the declared type's own range, read in place (a copy retains each of its parts).
        let parsed: MediaRange?
        if let exact = content.first(where: { $0.isExactly(contentType) }) {
            // What servers send (`application/json`, maybe with parameters), byte for byte a declared type: the
            // most specific match there is, found without parsing the header (this runs for every response).
            mediaType = exact
            parsed = nil
        } else {
            let actual = MediaRange(contentType)
            parsed = actual
            var best: (specificity: Int, mediaType: CompiledMediaType)?
            for mediaType in content {
                guard let specificity = mediaType.range.specificity(for: actual) else { continue }
                if best == nil || specificity > best!.specificity { best = (specificity, mediaType) }
            }
            guard let found = best?.mediaType else {
                violations.append(
                    ContractViolation(
                        kind: .undeclaredContentType(actual.essence, declared: declared), subject: subject,
                        operation: operation, responseKey: responseKey, instancePath: "header Content-Type",
                        specLocation: tracer.location(of: declaration)))
                return
            }
            mediaType = found
        }
        guard parsed?.isJSON ?? mediaType.range.isJSON, let schema = mediaType.schema else { return }
        guard let result = body.validate(against: schema.schema) else {
            violations.append(
                ContractViolation(
                    kind: .invalidJSON(contentType: (parsed ?? mediaType.range).essence), subject: subject,
                    operation: operation,
                    responseKey: responseKey, instancePath: "", specLocation: tracer.location(of: mediaType.declaration)
                ))
            return
        }
        appendSchemaErrors(
            result, schema: schema, prefix: nil, subject: subject, operation: operation, responseKey: responseKey,
            &violations)
    }

    /// Adds a violation for each error of `result`, with the failing keyword's place in the document.
    func appendSchemaErrors(
        _ result: JSONSchemaValidationResult, schema: CompiledSchemaReference, prefix: @autoclosure () -> String?,
        subject: ContractViolation.Subject, operation: OpenAPIOperation, responseKey: String?,
        _ violations: inout [ContractViolation]
    ) {
        guard !result.errors.isEmpty else { return }
        let prefix = prefix()
        for error in result.errors {
            let traced = tracer.trace(schema.site, evaluationPath: error.schemaPath)
            let instancePath = prefix.map { $0 + error.instancePath } ?? error.instancePath
            violations.append(
                ContractViolation(
                    kind: .schemaMismatch(message: error.message), subject: subject, operation: operation,
                    responseKey: responseKey, instancePath: instancePath, keyword: error.keyword,
                    schemaPath: traced?.text ?? (tracer.text(of: schema.site) + error.schemaPath),
                    specLocation: traced?.location ?? tracer.location(of: schema.site)))
        }
    }
}

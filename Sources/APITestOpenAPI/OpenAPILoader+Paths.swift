import APITestJSON
import APITestSupport

// MARK: - Components, paths, webhooks

extension OpenAPILoader {
    /// Compiles every schema of `components.schemas` and follows the Reference Objects of the other components, so
    /// that a broken component is reported even when no operation uses it.
    func readComponents(_ root: SpecNode) {
        guard let member = root.member("components"), let components = object(member, "components") else { return }
        if let schemas = components.member("schemas"), let map = object(schemas, "schemas") {
            if dialect == .openAPI31 {
                for (_, schema) in map.members { self.schemas.index(schema.location) }
            }
            for (_, schema) in map.members { _ = compileSchema(schema, for: .response) }
        }
        for section in [
            "parameters", "responses", "requestBodies", "headers", "examples", "links", "callbacks", "pathItems",
        ] {
            guard let member = components.member(section), let map = object(member, section) else { continue }
            for (_, entry) in map.members { _ = resolve(entry) }
        }
    }

    /// Reads every path item and its operations.
    func readPaths(_ root: SpecNode) {
        guard let member = root.member("paths"), let paths = object(member, "paths") else { return }
        for (key, node) in paths.members where !key.hasPrefix("x-") {
            guard let template = PathTemplate(key) else {
                report(.invalidPathTemplate(key), at: node.location)
                continue
            }
            guard let resolved = resolve(node), let item = object(resolved, key) else { continue }
            readPathItem(item, template: template)
        }
    }

    /// Follows the Reference Objects of `webhooks` (3.1); webhooks are requests the API sends, so nothing is
    /// matched against them.
    func readWebhooks(_ root: SpecNode) {
        guard let member = root.member("webhooks"), let webhooks = object(member, "webhooks") else { return }
        for (key, node) in webhooks.members where !key.hasPrefix("x-") {
            guard let resolved = resolve(node), let item = object(resolved, key) else { continue }
            for method in Self.methods {
                guard let operation = item.member(method).flatMap(resolve) else { continue }
                followReferences(ofOperation: operation)
            }
        }
    }

    /// Follows the Reference Objects of an operation that is not checked (a webhook's, a callback's).
    private func followReferences(ofOperation operation: SpecNode) {
        for parameter in operation.member("parameters")?.elements ?? [] { _ = resolve(parameter) }
        if let body = operation.member("requestBody") { _ = resolve(body) }
        for (_, response) in operation.member("responses")?.members ?? [] { _ = resolve(response) }
    }

    // MARK: - Path items

    private func readPathItem(_ item: SpecNode, template: PathTemplate) {
        let shared = readParameters(item.member("parameters"))
        for method in Self.methods {
            guard let member = item.member(method), let resolved = operationNode(member),
                let operation = object(resolved, method)
            else { continue }
            readOperation(operation, method: method.uppercased(), template: template, shared: shared)
        }
    }

    private func readOperation(_ node: SpecNode, method: String, template: PathTemplate, shared: [CompiledParameter]) {
        let location = documents.sourceLocation(node.location)
        var operationId: String?
        if let member = node.member("operationId"), let id = string(member, "operationId") {
            operationId = id
            if let first = operationIds[id] {
                report(.duplicateOperationId(id, first: documents.sourceLocation(first)), at: member.location)
            } else {
                operationIds[id] = member.location
            }
        }
        let shapeKey = "\(method) \(template.shape)"
        if let first = templateShapes[shapeKey] {
            report(
                .clashingPathTemplates(
                    method: method, template: template.text, first: first.template,
                    firstLocation: documents.sourceLocation(first.location)),
                at: node.location)
        } else {
            templateShapes[shapeKey] = (template.text, node.location)
        }
        var parameters = shared
        for parameter in readParameters(node.member("parameters")) {
            if let existing = parameters.firstIndex(where: { Self.sameParameter($0, parameter) }) {
                parameters[existing] = parameter
            } else {
                parameters.append(parameter)
            }
        }
        for index in parameters.indices
        where parameters[index].location == .query || parameters[index].location == .cookie {
            let parameter = parameters[index]
            parameters[index].siblingNames = Set(
                parameters.filter { $0.location == parameter.location && $0.name != parameter.name }.map(\.name))
        }
        for index in parameters.indices where parameters[index].location == .path {
            let parameter = parameters[index]
            guard !parameter.isJSONContent, parameter.style != "label", parameter.style != "matrix",
                !parameter.shape.isContainer
            else { continue }
            parameters[index].scalarPathSegment = template.wholeSegment(of: parameter.name)
        }
        var compiled = CompiledOperation(
            operation: OpenAPIOperation(
                operationId: operationId, method: method, pathTemplate: template.text, responseKeys: [],
                location: location, index: operations.count),
            template: template, parameters: parameters, responsesLocation: node.location)
        if let member = node.member("requestBody"), let body = resolve(member).flatMap({ object($0, "requestBody") }) {
            compiled.requestBody = readRequestBody(body)
        }
        if let member = node.member("responses"), let responses = object(member, "responses") {
            compiled.declaresResponses = true
            compiled.responsesLocation = responses.location
            compiled.responses = readResponses(responses)
            compiled.operation.responseKeys = compiled.responses.map(\.key)
        }
        for (_, callback) in node.member("callbacks")?.members ?? [] {
            guard let resolved = resolve(callback), case .object = resolved.value else { continue }
            for (_, item) in resolved.members {
                guard let pathItem = resolve(item), case .object = pathItem.value else { continue }
                for method in Self.methods {
                    guard let operation = pathItem.member(method).flatMap(resolve) else { continue }
                    followReferences(ofOperation: operation)
                }
            }
        }
        operations.append(compiled)
    }

    private static func sameParameter(_ a: CompiledParameter, _ b: CompiledParameter) -> Bool {
        guard a.location == b.location else { return false }
        return a.location == .header ? a.name.lowercased() == b.name.lowercased() : a.name == b.name
    }

    // MARK: - Responses

    private func readResponses(_ responses: SpecNode) -> [CompiledResponse] {
        var result: [CompiledResponse] = []
        for (key, node) in responses.members where !key.hasPrefix("x-") {
            guard let status = Self.responseStatus(key) else {
                report(.invalidResponseKey(key), at: node.location)
                continue
            }
            guard let resolved = resolve(node), let response = object(resolved, key) else { continue }
            var headers: [CompiledHeader] = []
            if let member = response.member("headers"), let map = object(member, "headers") {
                for (name, header) in map.members where name.lowercased() != "content-type" {
                    if let compiled = readHeader(name, header) { headers.append(compiled) }
                }
            }
            var content: [CompiledMediaType]?
            if let member = response.member("content"), let map = object(member, "content") {
                content = readContent(map, for: .response)
            }
            for (_, link) in response.member("links")?.members ?? [] { _ = resolve(link) }
            result.append(
                CompiledResponse(
                    key: key, status: status, headers: headers, content: content,
                    declaration: node.location))
        }
        return result
    }

    /// The statuses a key of `responses` covers: `200`, `2XX` (or `2xx`), `default`; nil for anything else.
    static func responseStatus(_ key: String) -> CompiledResponse.Status? {
        if key == "default" { return .default }
        let characters = Array(key)
        guard characters.count == 3, let first = characters[0].wholeNumberValue, (1...5).contains(first) else {
            return nil
        }
        if characters[1...].allSatisfy({ $0 == "X" || $0 == "x" }) { return .range(first) }
        guard characters[1...].allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(key) else { return nil }
        return .exact(code)
    }

    private func readHeader(_ name: String, _ node: SpecNode) -> CompiledHeader? {
        guard let resolved = resolve(node), let header = object(resolved, name) else { return nil }
        let (schema, shape, isJSON) = readValueSchema(header, for: .response)
        checkExamples(of: header)
        var required = false
        if let member = header.member("required") { required = boolean(member, "required") ?? false }
        var explode = false
        if let member = header.member("explode") { explode = boolean(member, "explode") ?? false }
        return CompiledHeader(
            name: name, isRequired: required, explode: explode, schema: schema,
            shape: shape, isJSONContent: isJSON, declaration: resolved.location)
    }

    // MARK: - Request bodies and content

    private func readRequestBody(_ body: SpecNode) -> CompiledRequestBody {
        var required = false
        if let member = body.member("required") { required = boolean(member, "required") ?? false }
        var content: [CompiledMediaType] = []
        if let member = body.member("content"), let map = object(member, "content") {
            content = readContent(map, for: .request)
        }
        return CompiledRequestBody(
            isRequired: required, content: content, declaration: body.location)
    }

    private func readContent(_ map: SpecNode, for direction: SchemaCompilation.Direction) -> [CompiledMediaType] {
        var result: [CompiledMediaType] = []
        for (key, node) in map.members {
            guard let mediaType = object(node, key) else { continue }
            var schema: CompiledSchemaReference?
            if let member = mediaType.member("schema") { schema = compileSchema(member, for: direction) }
            checkExamples(of: mediaType)
            for (_, example) in mediaType.member("examples")?.members ?? [] { _ = resolve(example) }
            for (_, encoding) in mediaType.member("encoding")?.members ?? [] {
                for (_, header) in encoding.member("headers")?.members ?? [] { _ = resolve(header) }
            }
            result.append(
                CompiledMediaType(
                    key: key, range: MediaRange(key), schema: schema,
                    declaration: node.location))
        }
        return result
    }

    // MARK: - Parameters

    private func readParameters(_ member: SpecNode?) -> [CompiledParameter] {
        guard let member else { return [] }
        guard case .array = member.value else {
            report(
                .wrongType(member: "parameters", expected: .array, found: Self.type(of: member.value)),
                at: member.location)
            return []
        }
        var result: [CompiledParameter] = []
        for node in member.elements {
            guard let resolved = resolve(node), let parameter = object(resolved, "parameter") else { continue }
            if let compiled = readParameter(parameter) { result.append(compiled) }
        }
        return result
    }

    private func readParameter(_ parameter: SpecNode) -> CompiledParameter? {
        guard let nameNode = parameter.member("name") else {
            report(.missingMember(member: "name", in: "parameter"), at: parameter.location)
            return nil
        }
        guard let inNode = parameter.member("in") else {
            report(.missingMember(member: "in", in: "parameter"), at: parameter.location)
            return nil
        }
        guard let name = string(nameNode, "name"), let placeText = string(inNode, "in") else { return nil }
        guard let place = ContractViolation.ParameterLocation(rawValue: placeText) else {
            report(.invalidParameterLocation(placeText), at: inNode.location)
            return nil
        }
        var required = false
        if let member = parameter.member("required") { required = boolean(member, "required") ?? false }
        if place == .path && !required { report(.pathParameterNotRequired(name), at: parameter.location) }
        // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
        if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) { return nil }
        var style = place == .query || place == .cookie ? "form" : "simple"
        if let member = parameter.member("style"), let text = string(member, "style") { style = text }
        var explode = style == "form"
        if let member = parameter.member("explode"), let flag = boolean(member, "explode") { explode = flag }
        let (schema, shape, isJSON) = readValueSchema(parameter, for: .request)
        checkExamples(of: parameter)
        return CompiledParameter(
            name: name, location: place, isRequired: required, style: style, explode: explode, schema: schema,
            shape: shape, isJSONContent: isJSON, declaration: parameter.location)
    }

    /// The schema of a parameter or header: its `schema`, or the schema of its one JSON `content` media type; its
    /// shape; whether the value is JSON text.
    private func readValueSchema(
        _ node: SpecNode, for direction: SchemaCompilation.Direction
    ) -> (CompiledSchemaReference?, ValueShape, Bool) {
        if let member = node.member("schema") {
            return (
                compileSchema(member, for: direction), ValueShape.of(member.location, in: documents, dialect: dialect),
                false
            )
        }
        if let content = node.member("content"), let first = content.members.first {
            guard MediaRange(first.key).isJSON, let member = first.node.member("schema") else {
                return (nil, .unknown, false)
            }
            return (compileSchema(member, for: direction), .unknown, true)
        }
        return (nil, .unknown, false)
    }
}

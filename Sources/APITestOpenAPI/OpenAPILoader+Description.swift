import APITestJSON
import APITestSupport

// MARK: - The description of a loaded document

extension OpenAPILoader {
    /// What the document declares, read once it has loaded without a problem (every `$ref` it follows has been
    /// followed, so nothing new is reported).
    func describe(_ contract: OpenAPIContract) -> OpenAPIDescription {
        let rootLocation = SpecLocation(path: documents.rootPath, pointer: [])
        let root = documents.node(at: rootLocation) ?? SpecNode(value: .object(JSONObject()), location: rootLocation)
        let title = root.member("info")?.member("title")?.value.stringValue
        var files: [String: JSONValue] = [:]
        for path in documents.readOrder { files[path] = documents.file(at: path)?.value }
        return OpenAPIDescription(
            version: version, title: title, rootPath: documents.rootPath, servers: describeServers(root),
            operations: describeOperations(root, contract: contract), securitySchemes: describeSecuritySchemes(root),
            dialect: dialect, files: files, contract: contract)
    }

    // MARK: - Servers and security schemes

    private func describeServers(_ root: SpecNode) -> [DescribedServer] {
        root.member("servers")?.elements.compactMap { server in
            guard let url = server.member("url")?.value.stringValue else { return nil }
            var defaults: [String: String] = [:]
            for (name, variable) in server.member("variables")?.members ?? [] {
                if case .string(let value) = variable.member("default")?.value { defaults[name] = value }
            }
            return DescribedServer(url: url, variables: defaults)
        } ?? []
    }

    private func describeSecuritySchemes(_ root: SpecNode) -> [String: DescribedSecurityScheme] {
        var schemes: [String: DescribedSecurityScheme] = [:]
        for (name, node) in root.member("components")?.member("securitySchemes")?.members ?? [] {
            guard let scheme = resolve(node), let type = scheme.member("type")?.value.stringValue else { continue }
            schemes[name] = DescribedSecurityScheme(
                type: type, name: scheme.member("name")?.value.stringValue,
                location: scheme.member("in")?.value.stringValue,
                scheme: scheme.member("scheme")?.value.stringValue?.lowercased())
        }
        return schemes
    }

    /// A `security` member's requirements; nil when there is none.
    private func describeSecurity(_ member: SpecNode?) -> [DescribedSecurityRequirement]? {
        guard let member, case .array = member.value else { return nil }
        return member.elements.map { requirement in
            DescribedSecurityRequirement(schemes: requirement.members.map(\.key))
        }
    }

    // MARK: - Operations

    private func describeOperations(_ root: SpecNode, contract: OpenAPIContract) -> [DescribedOperation] {
        let rootSecurity = describeSecurity(root.member("security")) ?? []
        var compiledOperations: [String: CompiledOperation] = [:]
        for compiled in contract.table { compiledOperations[compiled.operation.methodAndPath] = compiled }
        var result: [DescribedOperation] = []
        for (key, node) in root.member("paths")?.members ?? [] where !key.hasPrefix("x-") {
            guard let item = resolve(node), case .object = item.value else { continue }
            let shared = describeParameters(item.member("parameters"))
            for method in Self.methods {
                guard let operationNode = item.member(method).flatMap(resolve), case .object = operationNode.value,
                    let compiled = compiledOperations["\(method.uppercased()) \(key)"]
                else { continue }
                var parameters = shared
                for parameter in describeParameters(operationNode.member("parameters")) {
                    if let existing = parameters.firstIndex(where: { Self.sameParameter($0, parameter) }) {
                        parameters[existing] = parameter
                    } else {
                        parameters.append(parameter)
                    }
                }
                var body: DescribedRequestBody?
                if let member = operationNode.member("requestBody"), let resolved = resolve(member),
                    case .object = resolved.value
                {
                    body = describeRequestBody(resolved)
                }
                let tags = operationNode.member("tags")?.elements.compactMap(\.value.stringValue) ?? []
                result.append(
                    DescribedOperation(
                        operation: compiled.operation, tags: tags,
                        summary: operationNode.member("summary")?.value.stringValue, parameters: parameters,
                        requestBody: body,
                        security: describeSecurity(operationNode.member("security")) ?? rootSecurity))
            }
        }
        return result
    }

    private static func sameParameter(_ a: DescribedParameter, _ b: DescribedParameter) -> Bool {
        guard a.location == b.location else { return false }
        return a.location == .header ? a.name.lowercased() == b.name.lowercased() : a.name == b.name
    }

    // MARK: - Parameters

    private func describeParameters(_ member: SpecNode?) -> [DescribedParameter] {
        var result: [DescribedParameter] = []
        for node in member?.elements ?? [] {
            guard let parameter = resolve(node), let name = parameter.member("name")?.value.stringValue,
                let placeText = parameter.member("in")?.value.stringValue,
                let place = ContractViolation.ParameterLocation(rawValue: placeText)
            else { continue }
            if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
            let required = parameter.member("required")?.value == .bool(true)
            var style = place == .query || place == .cookie ? "form" : "simple"
            if let text = parameter.member("style")?.value.stringValue { style = text }
            var explode = style == "form"
            if case .bool(let flag) = parameter.member("explode")?.value { explode = flag }
            var schema = parameter.member("schema").map(describeSchema)
            var examples = describeExamples(parameter)
            var contentType: String?
            if schema == nil, let content = parameter.member("content"), let first = content.members.first {
                contentType = first.key
                schema = first.node.member("schema").map(describeSchema)
                examples += describeExamples(first.node)
            }
            result.append(
                DescribedParameter(
                    name: name, location: place, isRequired: required, style: style, explode: explode, schema: schema,
                    contentType: contentType, examples: examples,
                    declaration: documents.sourceLocation(parameter.location)))
        }
        return result
    }

    // MARK: - Request bodies

    private func describeRequestBody(_ body: SpecNode) -> DescribedRequestBody {
        let content = (body.member("content")?.members ?? []).map { key, mediaType in
            DescribedMediaType(
                key: key, schema: mediaType.member("schema").map(describeSchema),
                examples: describeExamples(mediaType))
        }
        return DescribedRequestBody(
            isRequired: body.member("required")?.value == .bool(true), content: content,
            declaration: documents.sourceLocation(body.location))
    }

    // MARK: - Schemas and examples

    private func describeSchema(_ node: SpecNode) -> DescribedSchema {
        DescribedSchema(value: node.value, path: node.location.path, pointer: node.location.pointer)
    }

    /// `example`, then the `value` of each entry of `examples` (Example Objects, `$ref`s followed; an entry with
    /// only an `externalValue` is left out: apitest never fetches).
    private func describeExamples(_ node: SpecNode) -> [JSONValue] {
        var result: [JSONValue] = []
        if let example = node.member("example") { result.append(example.value) }
        for (_, entry) in node.member("examples")?.members ?? [] {
            guard let example = resolve(entry), let value = example.member("value") else { continue }
            result.append(value.value)
        }
        return result
    }
}

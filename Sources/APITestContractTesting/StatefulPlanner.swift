package import APITestJSON
import APITestJSONSchema
package import APITestOpenAPI

/// The sequences of the stateful phase: for each operation that creates a resource (a `POST`), the operations
/// that read, change and delete it, found through the document's `links` or inferred from paths (`POST /pets` and
/// `GET /pets/{id}`), and how the new resource's id is found in the creation's response (a link's runtime
/// expression, the `Location` header, or an id property of the body).
package struct StatefulPlanner: Sendable {
    /// One chain: a creating operation and the operations on what it creates.
    package struct Chain: Sendable {
        /// The index of the creating operation.
        package var create: Int
        /// The operations on the created resource by step, each with how its parameters are filled.
        package var targets: [(step: FuzzCase.StatefulStep, operation: Int, link: Link?)]
    }

    /// A link from a creation's response to another operation: parameter names and their runtime expressions.
    package struct Link: Sendable {
        /// The parameters (`id`, `path.id`) and their expressions (`$response.body#/id`).
        package var parameters: [(name: String, expression: String)]
    }

    /// The document.
    package let description: OpenAPIDescription
    /// The root file as read, for `links`.
    package let document: JSONValue?

    /// A planner for `description`.
    package init(description: OpenAPIDescription, document: JSONValue?) {
        self.description = description
        self.document = document
    }

    /// The chains of the document, in operation order.
    package func chains() -> [Chain] {
        var chains: [Chain] = []
        for (index, operation) in description.operations.enumerated() where operation.method == "POST" {
            var targets: [(FuzzCase.StatefulStep, Int, Link?)] = []
            let links = self.links(of: operation)
            for (target, link) in links {
                guard let step = Self.step(for: description.operations[target].method) else { continue }
                targets.append((step, target, link))
            }
            if targets.isEmpty {
                for (target, other) in description.operations.enumerated()
                where Self.isItemPath(other.pathTemplate, of: operation.pathTemplate) {
                    guard let step = Self.step(for: other.method) else { continue }
                    targets.append((step, target, nil))
                }
            }
            guard !targets.isEmpty else { continue }
            chains.append(Chain(create: index, targets: targets))
        }
        return chains
    }

    /// The step an operation on a resource makes, by its method.
    static func step(for method: String) -> FuzzCase.StatefulStep? {
        switch method {
        case "GET": .readAfterCreate
        case "PUT", "PATCH": .update
        case "DELETE": .delete
        default: nil
        }
    }

    /// Whether `path` is `collection` followed by one templated segment (`/pets/{id}` of `/pets`).
    static func isItemPath(_ path: String, of collection: String) -> Bool {
        let base = collection.hasSuffix("/") ? String(collection.dropLast()) : collection
        guard path.hasPrefix(base + "/{") else { return false }
        let rest = path.dropFirst(base.count + 1)
        return rest.hasSuffix("}") && !rest.dropFirst().dropLast().contains("/") && !rest.dropFirst().contains("{")
    }

    /// The operations the 2xx responses of `operation` link to, with the link's parameters.
    private func links(of operation: DescribedOperation) -> [(Int, Link)] {
        guard let document else { return [] }
        let root = DescribedSchema(value: document, path: description.rootPath, pointer: [])
        guard
            let responses = root.member("paths", operation.pathTemplate, operation.method.lowercased(), "responses"),
            case .object(let entries) = responses.value
        else { return [] }
        var found: [(Int, Link)] = []
        for key in entries.keys where key.hasPrefix("2") {
            guard let entry = responses.member(key).flatMap(description.resolve),
                let links = entry.member("links"), case .object(let named) = links.value
            else { continue }
            for name in named.keys {
                guard let link = links.member(name).flatMap(description.resolve),
                    case .object(let object) = link.value
                else { continue }
                let target: Int?
                if let id = object["operationId"]?.stringValue {
                    target = description.operations.firstIndex { $0.operation.operationId == id }
                } else if let reference = object["operationRef"]?.stringValue {
                    target = Self.operation(named: reference, in: description)
                } else {
                    target = nil
                }
                guard let target else { continue }
                var parameters: [(String, String)] = []
                if case .object(let values) = object["parameters"] {
                    for (parameter, expression) in values {
                        guard let text = expression.stringValue else { continue }
                        parameters.append((parameter, text))
                    }
                }
                found.append((target, Link(parameters: parameters)))
            }
        }
        return found
    }

    /// The operation an `operationRef` (`#/paths/~1pets~1{id}/get`) names.
    static func operation(named reference: String, in description: OpenAPIDescription) -> Int? {
        guard let fragment = reference.split(separator: "#", maxSplits: 1).last else { return nil }
        guard let tokens = JSONPointer.referenceTokens(fragment), tokens.count == 3, tokens[0] == "paths" else {
            return nil
        }
        return description.operations.firstIndex {
            $0.pathTemplate == tokens[1] && $0.method == tokens[2].uppercased()
        }
    }
}

// MARK: - Runtime expressions

extension StatefulPlanner {
    /// The value of a link's runtime expression (`$response.body#/id`, `$response.header.Location`,
    /// `$request.path.id`, `$request.query.q`, `$request.body#/name`, `$statusCode`); nil when it names nothing.
    package static func evaluate(
        _ expression: String, request: FuzzCase, requestBody: JSONValue?, response: FuzzResponse
    ) -> JSONValue? {
        if expression == "$statusCode" { return .integer(Int64(response.status)) }
        if expression.hasPrefix("$response.header.") {
            return response.header(String(expression.dropFirst("$response.header.".count))).map(JSONValue.string)
        }
        if expression.hasPrefix("$response.body") {
            guard let body = try? JSONParser.parse(response.body) else { return nil }
            return pointer(String(expression.dropFirst("$response.body".count)), in: body)
        }
        if expression.hasPrefix("$request.body") {
            return requestBody.flatMap { pointer(String(expression.dropFirst("$request.body".count)), in: $0) }
        }
        for location in ["path", "query", "header"] where expression.hasPrefix("$request.\(location).") {
            let name = String(expression.dropFirst("$request.\(location).".count))
            return request.parameters.first { $0.location.rawValue == location && $0.name == name }?.value
        }
        // A constant.
        return expression.hasPrefix("$") ? nil : .string(expression)
    }

    /// The value at `fragment` (`#/id`, empty for the whole) in `value`.
    static func pointer(_ fragment: String, in value: JSONValue) -> JSONValue? {
        guard !fragment.isEmpty else { return value }
        guard fragment.hasPrefix("#") else { return nil }
        var current = value
        guard let tokens = JSONPointer.referenceTokens(fragment.dropFirst()) else { return nil }
        for name in tokens {
            switch current {
            case .object(let object):
                guard let next = object[name] else { return nil }
                current = next
            case .array(let items):
                guard let position = Int(name), items.indices.contains(position) else { return nil }
                current = items[position]
            default: return nil
            }
        }
        return current
    }

    /// The id of a created resource for a path parameter `name`: a body property of that name, else `id`, else a
    /// property ending in `Id`/`_id` (`petId`).
    static func inferredID(for name: String, in body: JSONValue?) -> JSONValue? {
        guard case .object(let object) = body else { return nil }
        if let value = object[name] { return value }
        if let value = object["id"] { return value }
        let lowered = name.lowercased()
        return object.first { $0.key.lowercased() == lowered || $0.key.lowercased().hasSuffix("id") }?.value
    }
}

import Hummingbird

// MARK: - UsersEndpoints

/// `/api/users` CRUD and `/api/reset`.
enum UsersEndpoints {
    static func routes(store: UserStore) -> [Route] {
        [
            Route(["GET"], "/api/users") { request in
                let users = await store.list(role: request.query("role"))
                return Reply.json(["users": .array(users.map(\.json)), "count": .int(users.count)])
            },
            Route(["POST"], "/api/users") { request in
                let fields = try UserFields(try await request.readJSONObject(), requireName: true)
                let user = try await perform {
                    try await store.create(
                        name: fields.name ?? "", email: fields.email ?? nil, role: fields.role ?? "user"
                    )
                }
                var headers = HTTPFields()
                headers[.location] = "/api/users/\(user.id)"
                return Reply.json(user.json, status: .created, headers: headers)
            },
            Route(["GET"], "/api/users/lookup") { request in
                // A lookup that may find nothing: `{"id": null}` then, still 200.
                guard let email = request.query("email"), !email.isEmpty else {
                    throw DemoError.badRequest("lookup needs ?email=")
                }
                let user = await store.list().first { $0.email?.lowercased() == email.lowercased() }
                return Reply.json(["id": user.map { .int($0.id) } ?? .null, "email": .string(email)])
            },
            Route(["GET"], "/api/users/{id}") { request in
                let id = try userID(request)
                return Reply.json(try await perform { try await store.get(id) }.json)
            },
            Route(["PUT"], "/api/users/{id}") { request in
                let id = try userID(request)
                _ = try await perform { try await store.get(id) }
                let fields = try UserFields(try await request.readJSONObject(), requireName: true)
                let user = try await perform {
                    try await store.modify(id) { user in
                        user.name = fields.name ?? user.name
                        user.email = fields.email ?? nil
                        user.role = fields.role ?? "user"
                    }
                }
                return Reply.json(user.json)
            },
            Route(["PATCH"], "/api/users/{id}") { request in
                let id = try userID(request)
                _ = try await perform { try await store.get(id) }
                let fields = try UserFields(try await request.readJSONObject(), requireName: false)
                let user = try await perform {
                    try await store.modify(id) { user in
                        if let name = fields.name { user.name = name }
                        if let email = fields.email { user.email = email }
                        if let role = fields.role { user.role = role }
                    }
                }
                return Reply.json(user.json)
            },
            Route(["DELETE"], "/api/users/{id}") { request in
                let id = try userID(request)
                try await perform { try await store.delete(id) }
                return Reply.empty(status: .noContent)
            },
            Route(["POST"], "/api/reset") { _ in
                await store.reset()
                return Reply.json(["reset": true, "count": .int(UserStore.seed.count)])
            },
        ]
    }

    // MARK: - Helpers

    /// The `{id}` parameter; anything that is not an integer cannot name a user, so it is a 404 too.
    private static func userID(_ request: DemoRequest) throws(DemoError) -> Int {
        let text = request.parameters["id"] ?? ""
        guard let id = Int(text) else { throw .notFound("user \(text) not found") }
        return id
    }

    /// Runs a store operation, mapping its failures to 404 / 409.
    private static func perform<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as UserStore.Failure {
            switch failure {
            case .notFound(let id): throw DemoError.notFound("user \(id) not found")
            case .nameTaken(let name):
                throw DemoError(status: .conflict, message: "a user named '\(name)' already exists")
            }
        }
    }
}

// MARK: - UserFields

/// The fields of a user body, type-checked: `name` a non-empty string, `email` a string or null, `role` a
/// non-empty string. A field left out is `nil`; `email: null` is `.some(nil)`.
struct UserFields {
    var name: String?
    var email: String??
    var role: String?

    init(_ body: JSON, requireName: Bool) throws(DemoError) {
        switch body["name"] {
        case .none:
            if requireName { throw .badRequest("missing required field 'name'") }
        case .string(let value)? where !value.trimmingHTTPWhitespace().isEmpty:
            name = value
        default:
            throw .badRequest("field 'name' must be a non-empty string")
        }
        switch body["email"] {
        case .none: email = nil
        case .null?: email = .some(nil)
        case .string(let value)?: email = .some(value)
        default: throw .badRequest("field 'email' must be a string or null")
        }
        switch body["role"] {
        case .none: role = nil
        case .string(let value)? where !value.isEmpty: role = value
        default: throw .badRequest("field 'role' must be a non-empty string")
        }
    }
}

import Hummingbird

// MARK: - PetstoreEndpoints

/// `/petstore`: the OpenAPI Initiative's petstore-expanded example (examples/.openapi/petstore-expanded.yaml),
/// served under the prefix `/petstore` and answering exactly as that spec says: every error is its `Error` schema,
/// `{"code": <status>, "message": "..."}`, which the spec declares as each operation's `default` response.
enum PetstoreEndpoints {
    static func routes(store: PetStore) -> [Route] {
        [
            Route(["GET"], "/petstore/pets") { request in
                try await answering {
                    let tags = request.queryPairs.filter { $0.0 == "tags" }.map(\.1)
                    let limit = try limit(request)
                    return Reply.json(.array(await store.find(tags: tags, limit: limit).map(\.json)))
                }
            },
            Route(["POST"], "/petstore/pets") { request in
                try await answering {
                    let (name, tag) = try newPet(try await request.readJSONObject())
                    return Reply.json(await store.add(name: name, tag: tag).json)
                }
            },
            Route(["GET"], "/petstore/pets/{id}") { request in
                try await answering {
                    let id = try petID(request)
                    guard let pet = await store.get(id) else { throw DemoError.notFound("pet \(id) not found") }
                    return Reply.json(pet.json)
                }
            },
            Route(["DELETE"], "/petstore/pets/{id}") { request in
                try await answering {
                    let id = try petID(request)
                    guard await store.delete(id) else { throw DemoError.notFound("pet \(id) not found") }
                    return Reply.empty(status: .noContent)
                }
            },
        ]
    }

    // MARK: - Errors

    /// The spec's `Error`: `{"code": <status code>, "message": message}` with that status.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Reply.json(["code": .int(status.code), "message": .string(message)], status: status)
    }

    /// Runs a handler, answering its failures with the spec's `Error` instead of the demo's `{"error": ...}`; a
    /// cancellation (the server stopping) is left to the responder.
    private static func answering(_ handler: () async throws -> Response) async throws -> Response {
        do {
            return try await handler()
        } catch let failure as DemoError {
            return error(failure.status, failure.message)
        } catch let failure as DemoRequest.BodyTooLarge {
            return error(.contentTooLarge, "request body larger than \(failure.limit) bytes")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return PetstoreEndpoints.error(.internalServerError, "\(error)")
        }
    }

    // MARK: - Parameters

    /// `?limit=`: an int32 that is not negative, or nil when absent; anything else is a 400.
    private static func limit(_ request: DemoRequest) throws(DemoError) -> Int? {
        guard let text = request.query("limit") else { return nil }
        guard let limit = Int(text), (0...Int(Int32.max)).contains(limit) else {
            throw .badRequest("limit must be an integer from 0 to \(Int32.max), got '\(text)'")
        }
        return limit
    }

    /// The `{id}` parameter, an int64; anything else is a 400.
    private static func petID(_ request: DemoRequest) throws(DemoError) -> Int {
        let text = request.parameters["id"] ?? ""
        guard let id = Int(text) else { throw .badRequest("id must be an integer, got '\(text)'") }
        return id
    }

    /// The spec's `NewPet`: `name` a string (required), `tag` a string when present; other members are ignored
    /// (the schema leaves the object open).
    private static func newPet(_ body: JSON) throws(DemoError) -> (String, String?) {
        let name: String
        switch body["name"] {
        case .none: throw .badRequest("missing required field 'name'")
        case .string(let value)?: name = value
        default: throw .badRequest("field 'name' must be a string")
        }
        switch body["tag"] {
        case .none: return (name, nil)
        case .string(let value)?: return (name, value)
        default: throw .badRequest("field 'tag' must be a string")
        }
    }
}

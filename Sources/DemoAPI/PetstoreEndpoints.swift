import HTTPTypes
import Hummingbird

// MARK: - PetstoreEndpoints

/// `/petstore`: the OpenAPI Initiative's petstore-expanded example (examples/.openapi/petstore-expanded.yaml),
/// served under the prefix `/petstore` and answering exactly as that spec says: every error is its `Error` schema,
/// `{"code": <status>, "message": "..."}`, which the spec declares as each operation's `default` response. What
/// examples/.openapi/petstore-faults.yaml adds (an `X-Total-Count` header, `GET /petstore/stats` behind an API key)
/// is served too; `--seeded-faults` swaps in the routes of `PetstoreEndpoints+SeededFaults.swift`.
enum PetstoreEndpoints {
    /// The petstore's routes; with `seededFaults`, each seeded fault of docs/demo-api.md breaks its one check.
    static func routes(store: PetStore, seededFaults: Bool = false) -> [Route] {
        seededFaults ? seededFaultRoutes(store: store) : cleanRoutes(store: store)
    }

    /// The routes that answer as petstore-faults.yaml says.
    private static func cleanRoutes(store: PetStore) -> [Route] {
        [
            Route(["GET"], "/petstore/pets") { request in
                try await answering {
                    let tags = request.queryPairs.filter { $0.0 == "tags" }.map(\.1)
                    let limit = try limit(request)
                    return list(await store.find(tags: tags, limit: nil), limit: limit)
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
            stats(store: store, checksKey: true),
        ]
    }

    // MARK: - Shared answers

    /// `X-Total-Count`: how many pets matched before `?limit` (petstore-faults.yaml requires it of `GET /pets`).
    static let totalCount = HTTPField.Name("X-Total-Count")!

    /// `X-API-Key`, the credential petstore-faults.yaml's `apiKey` scheme names.
    static let apiKeyHeader = HTTPField.Name("X-API-Key")!

    /// The one key `GET /petstore/stats` accepts.
    static let apiKey = "petstore-key"

    /// 200, the first `limit` of `matching` (all when nil) with `X-Total-Count: matching.count`.
    static func list(_ matching: [Pet], limit: Int?) -> Response {
        var headers = HTTPFields()
        headers[totalCount] = String(matching.count)
        let shown = limit.map { Array(matching.prefix($0)) } ?? matching
        return Reply.json(.array(shown.map(\.json)), headers: headers)
    }

    /// `GET /petstore/stats`: 200 `{"count": N}` with `X-API-Key: petstore-key`, else 401 (when `checksKey`).
    static func stats(store: PetStore, checksKey: Bool) -> Route {
        Route(["GET"], "/petstore/stats") { request in
            if checksKey, request.header(apiKeyHeader) != apiKey {
                return error(.unauthorized, "a valid X-API-Key is required")
            }
            return Reply.json(["count": .int(await store.count)])
        }
    }

    // MARK: - Errors

    /// The spec's `Error`: `{"code": <status code>, "message": message}` with that status.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Reply.json(["code": .int(status.code), "message": .string(message)], status: status)
    }

    /// Runs a handler, answering its failures with the spec's `Error` instead of the demo's `{"error": ...}`; a
    /// cancellation (the server stopping) is left to the responder.
    static func answering(_ handler: () async throws -> Response) async throws -> Response {
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
    static func limit(_ request: DemoRequest) throws(DemoError) -> Int? {
        guard let text = request.query("limit") else { return nil }
        guard let limit = Int(text), (0...Int(Int32.max)).contains(limit) else {
            throw .badRequest("limit must be an integer from 0 to \(Int32.max), got '\(text)'")
        }
        return limit
    }

    /// The `{id}` parameter, an int64; anything else is a 400.
    static func petID(_ request: DemoRequest) throws(DemoError) -> Int {
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

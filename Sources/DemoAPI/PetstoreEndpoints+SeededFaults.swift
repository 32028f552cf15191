import Hummingbird

// MARK: - PetstoreEndpoints + SeededFaults

/// `apitest-demo --seeded-faults`: the petstore with one seeded fault per contract-fuzzing check, each breaking
/// examples/.openapi/petstore-faults.yaml in one documented way for one kind of input (docs/demo-api.md, "Seeded
/// faults"); every other answer is the clean petstore's.
extension PetstoreEndpoints {
    /// The largest `?limit` the seeded 500 leaves alone.
    static let faultyLimitCeiling = 1000

    /// The clean routes with the seeded faults.
    static func seededFaultRoutes(store: PetStore) -> [Route] {
        [
            // Faults: a 500 for a limit over 1000 (no server error), each listed pet's id written as a string (body
            // matches the schema), no `X-Total-Count` (required headers present).
            Route(["GET"], "/petstore/pets") { request in
                try await answering {
                    let tags = request.queryPairs.filter { $0.0 == "tags" }.map(\.1)
                    let limit = try limit(request)
                    if let limit, limit > faultyLimitCeiling {
                        return error(
                            .internalServerError, "limit \(limit) overflows the page buffer of \(faultyLimitCeiling)")
                    }
                    return faultyList(await store.find(tags: tags, limit: limit))
                }
            },
            // Fault: PUT on the collection is served like GET (unsupported method: 405 and Allow expected).
            Route(["PUT"], "/petstore/pets") { _ in
                faultyList(await store.find(tags: [], limit: nil))
            },
            Route(["POST"], "/petstore/pets") { request in
                try await answering {
                    try await faultyAdd(try await request.readJSONObject(), store: store)
                }
            },
            // Faults: a deleted pet is still found (use after delete); an absent one is a 404 in text/plain
            // (content type documented).
            Route(["GET"], "/petstore/pets/{id}") { request in
                try await answering {
                    let id = try petID(request)
                    guard let pet = await store.getIncludingDeleted(id) else {
                        return Reply.text(
                            "pet \(id) not found", contentType: "text/plain; charset=utf-8", status: .notFound)
                    }
                    return Reply.json(pet.json)
                }
            },
            // Fault: a delete that only hides the pet from the list (use after delete).
            Route(["DELETE"], "/petstore/pets/{id}") { request in
                try await answering {
                    let id = try petID(request)
                    guard await store.softDelete(id) else { throw DemoError.notFound("pet \(id) not found") }
                    return Reply.empty(status: .noContent)
                }
            },
            // Fault: the API key is not checked (auth required).
            stats(store: store, checksKey: false),
        ]
    }

    /// The pets as JSON with each `id` written as a string (`"id":"1"`), and no `X-Total-Count`.
    private static func faultyList(_ pets: [Pet]) -> Response {
        Reply.json(
            .array(
                pets.map { pet in
                    var members: [(String, JSON)] = [("id", .string(String(pet.id))), ("name", .string(pet.name))]
                    if let tag = pet.tag { members.append(("tag", .string(tag))) }
                    return .object(members)
                })
        )
    }

    /// `POST /petstore/pets` with four faults: a `name` of another JSON type is taken as its JSON text (invalid data
    /// rejected), an empty `name` is a 400 (valid data accepted), a name already in the store is an undeclared 409
    /// (status documented), and a pet without a tag is answered but never stored (created resource available).
    private static func faultyAdd(_ body: JSON, store: PetStore) async throws(DemoError) -> Response {
        let name: String
        switch body["name"] {
        case .none: throw .badRequest("missing required field 'name'")
        case .string("")?: throw .badRequest("field 'name' must not be empty")
        case .string(let value)?: name = value
        case let other?: name = other.serialized
        }
        let tag: String?
        switch body["tag"] {
        case .none: tag = nil
        case .string(let value)?: tag = value
        default: throw .badRequest("field 'tag' must be a string")
        }
        if await store.contains(name: name) {
            return error(.conflict, "a pet named '\(name)' already exists")
        }
        guard let tag else { return Reply.json(await store.addWithoutStoring(name: name, tag: nil).json) }
        return Reply.json(await store.add(name: name, tag: tag).json)
    }
}

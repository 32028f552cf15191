// The in-memory pets behind /petstore, the OpenAPI Initiative's petstore-expanded example.

// MARK: - Pet

/// A pet of the petstore: `Pet` of petstore-expanded.yaml (`NewPet` with an `id`).
struct Pet: Sendable, Equatable {
    var id: Int
    var name: String
    var tag: String?

    /// `{"id", "name", "tag"}`; `tag` is left out when the pet has none (the spec's `tag` is a string, never null).
    var json: JSON {
        var members: [(String, JSON)] = [("id", .int(id)), ("name", .string(name))]
        if let tag { members.append(("tag", .string(tag))) }
        return .object(members)
    }
}

// MARK: - PetStore

/// The pets of one server process, seeded with three; ids only ever increase. An actor, so concurrent requests are
/// served one at a time like `UserStore`.
actor PetStore {
    static let seed = [
        Pet(id: 1, name: "Fluffy", tag: "cat"),
        Pet(id: 2, name: "Rex", tag: "dog"),
        Pet(id: 3, name: "Polly", tag: nil),
    ]

    private var pets: [Pet] = PetStore.seed
    private var nextID = 4
    /// Pets that `apitest-demo --seeded-faults` deleted only in appearance (`softDelete`): gone from every list,
    /// still found by `getIncludingDeleted`.
    private var softDeleted: [Pet] = []

    /// The pets in id order whose tag is one of `tags` (every pet when `tags` is empty), at most `limit` of them.
    func find(tags: [String], limit: Int?) -> [Pet] {
        let matching = tags.isEmpty ? pets : pets.filter { pet in pet.tag.map(tags.contains) ?? false }
        guard let limit else { return matching }
        return Array(matching.prefix(limit))
    }

    /// Adds a pet with the next id (duplicates are allowed, as the spec says).
    func add(name: String, tag: String?) -> Pet {
        let pet = Pet(id: nextID, name: name, tag: tag)
        nextID += 1
        pets.append(pet)
        return pet
    }

    /// The pet with `id`, if any.
    func get(_ id: Int) -> Pet? {
        pets.first { $0.id == id }
    }

    /// Removes the pet with `id`; false when there was none.
    func delete(_ id: Int) -> Bool {
        guard let index = pets.firstIndex(where: { $0.id == id }) else { return false }
        pets.remove(at: index)
        return true
    }

    // MARK: - Seeded faults

    /// How many pets the store holds (soft-deleted ones not counted).
    var count: Int { pets.count }

    /// Whether a pet (soft-deleted ones not counted) is named `name`.
    func contains(name: String) -> Bool {
        pets.contains { $0.name == name }
    }

    /// A pet with the next id that is answered but never stored (the seeded fault "created resource not
    /// available").
    func addWithoutStoring(name: String, tag: String?) -> Pet {
        defer { nextID += 1 }
        return Pet(id: nextID, name: name, tag: tag)
    }

    /// Removes the pet with `id` from every list but keeps it for `getIncludingDeleted` (the seeded fault "use after
    /// delete"); false when there was none.
    func softDelete(_ id: Int) -> Bool {
        guard let index = pets.firstIndex(where: { $0.id == id }) else { return false }
        softDeleted.append(pets.remove(at: index))
        return true
    }

    /// The pet with `id`, soft-deleted or not.
    func getIncludingDeleted(_ id: Int) -> Pet? {
        get(id) ?? softDeleted.first { $0.id == id }
    }
}

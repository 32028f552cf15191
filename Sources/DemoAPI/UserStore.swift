// The in-memory users resource behind /api/users.

// MARK: - User

/// A user of the demo API.
struct User: Sendable, Equatable {
    var id: Int
    var name: String
    var email: String?
    var role: String

    /// `{"id", "name", "email", "role"}`.
    var json: JSON {
        ["id": .int(id), "name": .string(name), "email": .string(email), "role": .string(role)]
    }
}

// MARK: - UserStore

/// The users of one server process, seeded with alice and bob; ids only ever increase (until a reset).
actor UserStore {
    /// What a store operation can fail with.
    enum Failure: Error, Equatable {
        case notFound(Int)
        case nameTaken(String)
    }

    static let seed = [
        User(id: 1, name: "alice", email: "alice@example.com", role: "admin"),
        User(id: 2, name: "bob", email: "bob@example.com", role: "user"),
    ]

    private var users: [User] = UserStore.seed
    private var nextID = 3

    /// All users in id order, optionally only those with `role`.
    func list(role: String? = nil) -> [User] {
        guard let role else { return users }
        return users.filter { $0.role == role }
    }

    /// The user with `id`.
    func get(_ id: Int) throws(Failure) -> User {
        guard let user = users.first(where: { $0.id == id }) else { throw .notFound(id) }
        return user
    }

    /// Adds a user with the next id.
    func create(name: String, email: String?, role: String) throws(Failure) -> User {
        guard !users.contains(where: { $0.name == name }) else { throw .nameTaken(name) }
        let user = User(id: nextID, name: name, email: email, role: role)
        nextID += 1
        users.append(user)
        return user
    }

    /// Replaces the fields of user `id` with `update(user)`, keeping names unique.
    func modify(_ id: Int, _ update: @Sendable (inout User) -> Void) throws(Failure) -> User {
        guard let index = users.firstIndex(where: { $0.id == id }) else { throw .notFound(id) }
        var user = users[index]
        update(&user)
        user.id = id
        if users.contains(where: { $0.name == user.name && $0.id != id }) { throw .nameTaken(user.name) }
        users[index] = user
        return user
    }

    /// Removes user `id`.
    func delete(_ id: Int) throws(Failure) {
        guard let index = users.firstIndex(where: { $0.id == id }) else { throw .notFound(id) }
        users.remove(at: index)
    }

    /// Restores the seed users and the id counter.
    func reset() {
        users = UserStore.seed
        nextID = 3
    }
}

import Hummingbird

// MARK: - ItemEndpoints

/// `/api/items`: items in named groups, made in bulk, for tests that loop over a list (create N, list them, delete
/// each). Groups keep concurrent tests apart.
enum ItemEndpoints {
    /// The most items one request makes.
    static let batchLimit = 10_000

    static func routes(store: ItemStore) -> [Route] {
        [
            Route(["POST"], "/api/items") { request in
                let group = try groupName(request)
                let count = try request.intQuery("count", default: 1, in: 0...batchLimit)
                let ids = await store.create(group: group, count: count)
                return Reply.json(["group": .string(group), "ids": .array(ids.map { .int($0) })], status: .created)
            },
            Route(["GET"], "/api/items") { request in
                let group = try groupName(request)
                let ids = await store.list(group: group)
                return Reply.json([
                    "group": .string(group), "ids": .array(ids.map { .int($0) }), "count": .int(ids.count),
                ])
            },
            Route(["DELETE"], "/api/items/{id}") { request in
                let id = try request.intParameter("id", in: 1...Int.max)
                guard await store.delete(id) else { throw DemoError.notFound("item \(id) not found") }
                return Reply.empty(status: .noContent)
            },
        ]
    }

    /// `?group=NAME`: 1 to 64 letters, digits, `-` or `_`.
    private static func groupName(_ request: DemoRequest) throws(DemoError) -> String {
        let group = request.query("group") ?? ""
        guard (1...64).contains(group.count),
            group.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw DemoError.badRequest("?group= takes 1 to 64 letters, digits, '-' or '_'") }
        return group
    }
}

/// The demo's items: ids only ever increase, each in one group.
actor ItemStore {
    private var groups: [String: [Int]] = [:]
    private var groupOf: [Int: String] = [:]
    private var nextID = 1

    /// Makes `count` items in `group`; their ids.
    func create(group: String, count: Int) -> [Int] {
        let ids = Array(nextID..<(nextID + count))
        nextID += count
        groups[group, default: []] += ids
        for id in ids { groupOf[id] = group }
        return ids
    }

    /// The ids of `group`, in order.
    func list(group: String) -> [Int] { groups[group] ?? [] }

    /// Deletes an item; false when there is none.
    func delete(_ id: Int) -> Bool {
        guard let group = groupOf.removeValue(forKey: id) else { return false }
        groups[group]?.removeAll { $0 == id }
        return true
    }
}

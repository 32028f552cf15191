import Hummingbird

// MARK: - JobEndpoints

/// `/api/jobs`: a stateful endpoint for polling. A job is `pending` for its first `polls` reads (default 3), then
/// `done` with a result.
enum JobEndpoints {
    static func routes(store: JobStore) -> [Route] {
        [
            Route(["POST"], "/api/jobs") { request in
                let text = request.query("polls") ?? "3"
                guard let polls = Int(text), (0...1000).contains(polls) else {
                    throw DemoError.badRequest("polls must be 0 to 1000, got '\(text)'")
                }
                let id = await store.create(polls: polls)
                var headers = HTTPFields()
                headers[.location] = "/api/jobs/\(id)"
                return Reply.json(["id": .int(id), "state": .string("pending")], status: .accepted, headers: headers)
            },
            Route(["GET"], "/api/jobs/{id}") { request in
                let text = request.parameters["id"] ?? ""
                guard let id = Int(text), let job = await store.poll(id) else {
                    throw DemoError.notFound("job \(text) not found")
                }
                var body: [(String, JSON)] = [
                    ("id", .int(id)), ("state", .string(job.done ? "done" : "pending")), ("polls", .int(job.reads)),
                ]
                if job.done { body.append(("result", .int(42))) }
                return Reply.json(.object(body))
            },
        ]
    }
}

/// The demo's jobs, in memory.
actor JobStore {
    struct Job {
        var pollsUntilDone: Int
        var reads = 0
        var done: Bool { reads > pollsUntilDone }
    }

    private var jobs: [Int: Job] = [:]
    private var nextID = 1

    func create(polls: Int) -> Int {
        defer { nextID += 1 }
        jobs[nextID] = Job(pollsUntilDone: polls)
        return nextID
    }

    /// Counts a read of the job and returns it.
    func poll(_ id: Int) -> Job? {
        guard var job = jobs[id] else { return nil }
        job.reads += 1
        jobs[id] = job
        return job
    }
}

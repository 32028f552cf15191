import Hummingbird

// MARK: - StallEndpoints

/// `/stall`: a server that stalls once, for the load mode's coordinated-omission test. `POST /stall/arm?ms=N` makes
/// every request to `GET /stall/ping` that arrives in the next N ms (0 to 10,000) wait until those N ms are over;
/// outside a stall, `ping` answers at once. `GET /stall/count` says how many pings arrived so far.
enum StallEndpoints {
    static func routes(stall: StallClock) -> [Route] {
        [
            Route(["POST"], "/stall/arm") { request in
                let text = request.query("ms") ?? "1000"
                guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
                    throw DemoError.badRequest("ms must be 0 to 10000, got '\(text)'")
                }
                await stall.arm(for: .milliseconds(milliseconds))
                return Reply.json(["armed": .int(milliseconds)])
            },
            Route(["GET"], "/stall/count") { _ in
                Reply.json(["pings": .int(await stall.pings)])
            },
            Route(["GET"], "/stall/ping") { _ in
                await stall.ping()
                if let until = await stall.until, until > ContinuousClock.now {
                    try await Task.sleep(until: until, clock: .continuous)
                    return Reply.json(["stalled": .bool(true)])
                }
                return Reply.json(["stalled": .bool(false)])
            },
        ]
    }
}

/// When the current stall ends.
actor StallClock {
    private(set) var until: ContinuousClock.Instant?
    private(set) var pings = 0

    func ping() { pings += 1 }

    func arm(for duration: Duration) {
        until = ContinuousClock.now + duration
    }
}

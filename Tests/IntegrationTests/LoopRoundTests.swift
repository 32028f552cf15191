import APITestHTTP
import Testing

/// What the event loop's rounds cost the kernel (issue 38: the load mode's CPU per iteration): work that arrives
/// while the loop is busy (a job's own jobs, a transfer a job starts) is taken in the next round without a system
/// call to look at the sockets first, which are looked at after at most a few such rounds.
@Suite(.serialized) final class LoopRoundTests {
    let demo: DemoServer

    init() async throws {
        demo = try await DemoServer.start()
    }

    deinit {
        demo.stop()
    }

    @Test func aTaskThatYieldsOnTheLoopRunsOnWithoutAPollPerHop() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let executor = try #require(session.transferExecutor)
        let hops = 400
        let before = session.loopWaits
        let task = Task(executorPreference: executor) { () -> Int in
            // Each yield enqueues the task's next job on the loop, from the loop thread.
            for _ in 0..<hops { await Task.yield() }
            return hops
        }
        #expect(await task.value == hops)
        // The old loop looked at the sockets every round: at least one wait a hop. Now once every four rounds at
        // most (a hop takes one or two rounds), and an idle loop's own waits (a second each) add a handful.
        let waits = session.loopWaits - before
        #expect(waits < hops * 3 / 4, "\(waits) waits for \(hops) hops")
    }

    @Test func sequentialTransfersOnTheLoopEachCostAboutOneWait() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let executor = try #require(session.transferExecutor)
        let url = demo.baseURL + "/json"
        let transfers = 60
        // The first transfer opens the connection (its own waits for connect); the rest reuse it.
        let warm = Task(executorPreference: executor) { try await session.perform(HTTPRequest(url: url)).statusCode }
        #expect(try await warm.value == 200)
        let before = session.loopWaits
        let task = Task(executorPreference: executor) { () -> Int in
            var succeeded = 0
            for _ in 0..<transfers where (try? await session.perform(HTTPRequest(url: url)))?.statusCode == 200 {
                succeeded += 1
            }
            return succeeded
        }
        #expect(await task.value == transfers)
        // Each transfer waits for its response; starting it and resuming its caller take no wait of their own (the
        // old loop looked at the sockets once more for each: two waits a transfer).
        let waits = session.loopWaits - before
        #expect(waits < transfers * 3 / 2, "\(waits) waits for \(transfers) transfers")
    }
}

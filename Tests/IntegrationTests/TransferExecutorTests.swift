import APITestHTTP
import APITestJSON
import Foundation
import Synchronization
import Testing

/// A session's event-loop thread as a task executor (issue 38: the load mode's iterations start their transfers
/// and are resumed by their completions on one thread, with no hand-off), against the demo API on 127.0.0.1.
@Suite(.serialized) final class TransferExecutorTests {
    let demo: DemoServer

    init() async throws {
        demo = try await DemoServer.start()
    }

    deinit {
        demo.stop()
    }

    /// The name of the calling thread (the loop names itself "apitest-loop"), as Linux keeps it.
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .newlines)
    }

    /// The thread names a task preferring `executor` saw: before its first transfer and after each of three.
    static func threadsAround(_ session: SessionManager, _ url: String, on executor: any TaskExecutor) async -> [String]
    {
        let task = Task(executorPreference: executor) { () -> [String] in
            var names = [threadName()]
            for _ in 0..<3 {
                let status = (try? await session.perform(HTTPRequest(url: url)))?.statusCode
                names.append(status == 200 ? threadName() : "failed")
            }
            return names
        }
        return await task.value
    }

    @Test func aTaskThatPrefersTheLoopRunsBeforeAndAfterItsTransfersOnIt() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let executor = try #require(session.transferExecutor)
        let threads = await Self.threadsAround(session, demo.baseURL + "/json", on: executor)
        #expect(threads == Array(repeating: "apitest-loop", count: 4))
        // A task without the preference runs elsewhere.
        #expect(Self.threadName() != "apitest-loop")
    }

    @Test func manyConcurrentTasksOnTheLoopAllComplete() async throws {
        let session = SessionManager(configuration: SessionConfiguration(maxConnections: 20))
        defer { session.shutdown() }
        let executor = try #require(session.transferExecutor)
        let url = demo.baseURL + "/json"
        let counts = Mutex((succeeded: 0, onLoop: 0))
        await withDiscardingTaskGroup { group in
            for _ in 0..<300 {
                group.addTask(executorPreference: executor) { @Sendable in
                    let ok = (try? await session.perform(HTTPRequest(url: url)))?.statusCode == 200
                    let onLoop = Self.threadName() == "apitest-loop"
                    counts.withLock { counts in
                        counts.succeeded += ok ? 1 : 0
                        counts.onLoop += onLoop ? 1 : 0
                    }
                }
            }
        }
        #expect(counts.withLock { $0.succeeded } == 300)
        #expect(counts.withLock { $0.onLoop } == 300)
    }

    /// How long a task preferring `preference` slept for 30 ms on `executor`'s timer, and on which thread it woke.
    static func sleep30(
        on executor: any TransferExecutor, preferring preference: (any TaskExecutor)?
    ) async -> (
        Duration, String
    ) {
        let task = Task(executorPreference: preference) { () -> (Duration, String) in
            let clock = ContinuousClock()
            let start = clock.now
            await executor.sleep(until: start + .milliseconds(30))
            return (clock.now - start, threadName())
        }
        return await task.value
    }

    @Test func sleepingOnTheLoopsTimerLastsUntilTheDeadline() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let executor = try #require(session.transferExecutor)
        let (sleptOnLoop, loopThread) = await Self.sleep30(on: executor, preferring: executor)
        #expect(sleptOnLoop >= .milliseconds(30))
        #expect(loopThread == "apitest-loop")
        let (sleptElsewhere, otherThread) = await Self.sleep30(on: executor, preferring: nil)
        #expect(sleptElsewhere >= .milliseconds(30))
        #expect(otherThread != "apitest-loop")
        // Sleepers wake in deadline order, whatever the order they went to sleep in.
        let woken = Mutex<[Int]>([])
        let start = ContinuousClock().now
        await withDiscardingTaskGroup { group in
            for index in [3, 1, 2] {
                group.addTask(executorPreference: executor) { @Sendable in
                    await executor.sleep(until: start + .milliseconds(10 * index))
                    woken.withLock { $0.append(index) }
                }
            }
        }
        #expect(woken.withLock { $0 } == [1, 2, 3])
    }

    /// What a transfer by a task preferring `executor` ended as: "sent", "shut down" or the error.
    static func outcome(_ session: SessionManager, _ url: String, on executor: any TaskExecutor) async -> String {
        let task = Task(executorPreference: executor) { () -> String in
            do {
                _ = try await session.perform(HTTPRequest(url: url))
                return "sent"
            } catch let error as HTTPError {
                if case .sessionShutDown = error.detail { return "shut down" }
                return "\(error)"
            } catch {
                return "\(error)"
            }
        }
        return await task.value
    }

    @Test func tasksOfAStoppedLoopGoOnElsewhere() async throws {
        let session = SessionManager()
        let executor = try #require(session.transferExecutor)
        #expect(await Self.outcome(session, demo.baseURL + "/json", on: executor) == "sent")
        // A sleeper of an hour is woken when the session shuts down, and its task finishes off the loop.
        let sleeper = Task(executorPreference: executor) { () -> Duration in
            let clock = ContinuousClock()
            let start = clock.now
            await executor.sleep(until: start + .seconds(3600))
            return clock.now - start
        }
        try await Task.sleep(for: .milliseconds(50))
        session.shutdown()
        #expect(await sleeper.value < .seconds(60))
        // A task that prefers the stopped loop still runs; its transfer fails as the session's do.
        #expect(await Self.outcome(session, demo.baseURL + "/json", on: executor) == "shut down")
    }

    // MARK: - Several loops

    /// The cookie `name` the demo's `/cookies` shows for `jar`, asked by a task preferring `executor`.
    static func cookie(
        _ name: String, _ session: SessionManager, _ base: String, jar: CookieJar, on executor: (any TaskExecutor)?
    ) async -> String? {
        let task = Task(executorPreference: executor) { () -> String? in
            guard let response = try? await session.perform(HTTPRequest(url: base + "/cookies", cookieJar: jar)),
                let document = try? JSONParser.parse(response.body)
            else { return nil }
            return document["cookies"]?[name]?.stringValue
        }
        return await task.value
    }

    /// Sets the cookie `name=value` in `jar` from a task preferring `executor`.
    static func setCookie(
        _ name: String, _ value: String, _ session: SessionManager, _ base: String, jar: CookieJar,
        on executor: (any TaskExecutor)?
    ) async {
        let task = Task(executorPreference: executor) {
            _ = try? await session.perform(HTTPRequest(url: base + "/cookies/set?\(name)=\(value)", cookieJar: jar))
        }
        await task.value
    }

    @Test func aJarKeepsItsCookiesOnTheLoopThatFirstUsedItWhoeverAsks() async throws {
        let session = SessionManager(configuration: SessionConfiguration(eventLoops: 2))
        defer { session.shutdown() }
        let loops = session.transferExecutors
        try #require(loops.count == 2)
        let base = demo.baseURL
        // First used by a task on the second loop; later asked from elsewhere and from the first loop.
        let jar = CookieJar()
        await Self.setCookie("flavour", "oatmeal", session, base, jar: jar, on: loops[1])
        #expect(await Self.cookie("flavour", session, base, jar: jar, on: nil) == "oatmeal")
        #expect(await Self.cookie("flavour", session, base, jar: jar, on: loops[0]) == "oatmeal")
        // Another jar sees none of them, on either loop.
        #expect(await Self.cookie("flavour", session, base, jar: CookieJar(), on: loops[1]) == nil)
        #expect(await Self.cookie("flavour", session, base, jar: CookieJar(), on: loops[0]) == nil)
    }

    @Test func aCopyOfAJarStartsWithItsCookiesOnAnotherLoop() async throws {
        let session = SessionManager(configuration: SessionConfiguration(eventLoops: 2))
        defer { session.shutdown() }
        let loops = session.transferExecutors
        try #require(loops.count == 2)
        let base = demo.baseURL
        // A suite's jar filled by setup (off the loops: the first loop), copied by tests on each loop.
        let suiteJar = CookieJar()
        await Self.setCookie("session", "s3cr3t", session, base, jar: suiteJar, on: nil)
        let onSecond = CookieJar(copying: suiteJar)
        let onFirst = CookieJar(copying: suiteJar)
        #expect(await Self.cookie("session", session, base, jar: onSecond, on: loops[1]) == "s3cr3t")
        #expect(await Self.cookie("session", session, base, jar: onFirst, on: loops[0]) == "s3cr3t")
        // A copy's later cookies stay its own.
        await Self.setCookie("step", "2", session, base, jar: onSecond, on: loops[1])
        #expect(await Self.cookie("step", session, base, jar: onSecond, on: loops[1]) == "2")
        #expect(await Self.cookie("step", session, base, jar: suiteJar, on: nil) == nil)
        #expect(await Self.cookie("step", session, base, jar: onFirst, on: loops[0]) == nil)
        // Closing a copy on its loop empties it.
        session.close(onSecond)
        #expect(await Self.cookie("session", session, base, jar: onSecond, on: loops[1]) == nil)
    }
}

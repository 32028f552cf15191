import Foundation
import Synchronization

// MARK: - The loop as a task executor

/// The loop thread offered as the executor of tasks that start transfers (`withTaskExecutorPreference`, a task
/// group's `addTask(executorPreference:)`): such a task runs on the loop thread between its transfers, so starting a
/// transfer and being resumed by its completion are calls on one thread, with no hand-off to another and no
/// wake-up. The load mode's iterations run this way; work that blocks (a large file read, a slow decoder) belongs
/// elsewhere, since the loop thread's time is every transfer's.
extension CurlMultiLoop: TransferExecutor {
    /// Whether the caller runs on the loop thread.
    var isOnLoopThread: Bool {
        let id = loopThreadID.load(ordering: .acquiring)
        return id != 0 && pthread_equal(pthread_t(id), pthread_self()) != 0
    }

    /// Runs `job` on the loop thread: at the start of the loop's next round when enqueued there (no lock, no
    /// wake-up), else through the inbox. Once the loop has stopped, on the global executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isOnLoopThread {
            if stopping {
                globalConcurrentExecutor.enqueue(job)
            } else {
                localJobs.append(job)
            }
        } else if !submitJob(job) {
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Suspends the calling task until `deadline` on the loop's own timer (its epoll wait), with no timer thread:
    /// a task running on the loop is resumed there, by the loop. Returns at once once the loop has stopped.
    func sleep(until deadline: ContinuousClock.Instant) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if isOnLoopThread {
                if stopping {
                    continuation.resume()
                } else {
                    timers.add(deadline, continuation)
                }
            } else if !submit(.wake(at: deadline, continuation: continuation)) {
                continuation.resume()
            }
        }
    }

    /// The cookies of `jar` on this loop as `CURLINFO_COOKIELIST` lines (none when it has none here, or once the
    /// loop has stopped): for a jar on another loop that starts from them.
    func cookieLines(of jar: CookieJar) async -> [String] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            if !submit(.exportCookies(id: jar.id, continuation: continuation)) { continuation.resume(returning: []) }
        }
    }

    /// Runs each of `jobs` on the loop thread, as this executor.
    func runJobs(_ jobs: [UnownedJob]) {
        assertOnLoopThread()
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }

    /// Resumes the sleepers whose deadline is `now` or earlier.
    func fireTimers(now: ContinuousClock.Instant) {
        assertOnLoopThread()
        while let continuation = timers.popDue(now) { continuation.resume() }
    }

    /// Hands `jobs` to the global executor: the loop has stopped, and their tasks go on there.
    func handOff(_ jobs: [UnownedJob]) {
        for job in jobs { globalConcurrentExecutor.enqueue(job) }
    }
}

// MARK: - LoopTimers

/// The sleeping tasks of a loop, earliest deadline first (a binary heap; ties in the order they were added).
struct LoopTimers {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var order: UInt64
        var continuation: CheckedContinuation<Void, Never>

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    private var heap: [Entry] = []
    private var added: UInt64 = 0

    /// The earliest deadline, `nil` with no sleeper.
    var earliest: ContinuousClock.Instant? { heap.first?.deadline }

    /// Adds a sleeper to be resumed at `deadline`.
    mutating func add(_ deadline: ContinuousClock.Instant, _ continuation: CheckedContinuation<Void, Never>) {
        added &+= 1
        heap.append(Entry(deadline: deadline, order: added, continuation: continuation))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest sleeper if its deadline is `now` or earlier.
    mutating func popDue(_ now: ContinuousClock.Instant) -> CheckedContinuation<Void, Never>? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < heap.count, heap[left].precedes(heap[first]) { first = left }
                if right < heap.count, heap[right].precedes(heap[first]) { first = right }
                guard first != parent else { break }
                heap.swapAt(parent, first)
                parent = first
            }
        }
        return first.continuation
    }

    /// Resumes every sleeper now (the loop is stopping) and forgets them.
    mutating func resumeAll() {
        for entry in heap { entry.continuation.resume() }
        heap.removeAll()
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return product &+ attoseconds / 1_000_000_000
    }
}

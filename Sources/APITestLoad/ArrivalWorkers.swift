import Synchronization

/// The open model's iterations of one arrival shard, handed to tasks that outlive them: a task that has run an
/// iteration waits here for the next arrival instead of ending, so an arrival resumes a waiting task (a job on its
/// executor) rather than creating one (a task's allocation, its registration in the group, its teardown).
///
/// ``hand(_:)`` gives an arrival to a waiting task, or says there is none (the shard then starts a task with it);
/// ``park(_:thenRelease:)`` makes a task that finished an iteration wait for the next, and frees its in-flight slot
/// only once it waits, so a shard never has more tasks than iterations it ran at once; ``close()`` ends the waiting
/// tasks once the shard's arrivals are over (its schedule's end, a stop, cancellation).
final class ArrivalWorkers: Sendable {
    /// An iteration to run: the picked test and when it was meant to start.
    struct Arrival: Sendable, Equatable {
        let pick: Int
        let intended: ContinuousClock.Instant
    }

    private struct State {
        var waiting: [CheckedContinuation<Arrival?, Never>] = []
        var closed = false
    }

    private let state = Mutex(State())

    /// Resumes a waiting task with `arrival`; `false` when no task waits (nor will: the caller runs it).
    func hand(_ arrival: Arrival) -> Bool {
        let worker = state.withLock { state -> CheckedContinuation<Arrival?, Never>? in
            state.waiting.popLast()
        }
        guard let worker else { return false }
        worker.resume(returning: arrival)
        return true
    }

    /// Waits for the next arrival, `nil` once the shard's arrivals are over; `release` (the task's in-flight slot)
    /// runs once the task waits, so that the arrival the slot lets in finds it.
    func park(thenRelease release: () -> Void) async -> Arrival? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Arrival?, Never>) in
            let closed = state.withLock { state -> Bool in
                if !state.closed { state.waiting.append(continuation) }
                return state.closed
            }
            release()
            if closed { continuation.resume(returning: nil) }
        }
    }

    /// No more arrivals: every waiting task ends, and a task that finishes its iteration later ends then.
    func close() {
        let waiting = state.withLock { state -> [CheckedContinuation<Arrival?, Never>] in
            state.closed = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for worker in waiting { worker.resume(returning: nil) }
    }
}

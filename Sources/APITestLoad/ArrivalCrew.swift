import Synchronization

/// The open model's iteration tasks over every arrival shard: about the in-flight limit of them at most in all (one
/// more a shard when shards start one at the same instant, or while a shard's tasks end after its last arrival).
///
/// Each shard hands its arrivals to the tasks waiting in its own ``ArrivalWorkers`` (they run on its loop). A task
/// keeps what it grew for its deepest iteration until it ends (the Swift task allocator's slabs: the async frames
/// of the runner's steps, about 60–110 KiB), so tasks cost memory for as long as they wait. The in-flight slots are
/// shared by the shards while each shard had its own tasks: after a burst that filled the slots on one loop, the
/// other loop's arrivals found none of their shard waiting and started tasks of their own, up to twice the limit in
/// all (198 tasks for `--max-in-flight 100` at 5,000/s on a stalled machine). Now a shard starts a task only while
/// the shards have fewer than the limit; at the limit, an arrival that finds no task of its shard waiting goes to a
/// task waiting in another shard (it then runs on that task's loop).
final class ArrivalCrew: Sendable {
    /// Each shard's waiting tasks, by shard.
    let shards: [ArrivalWorkers]
    /// The tasks started and not ended, over every shard.
    private let tasks = Atomic<Int>(0)
    private let limit: Int

    /// The tasks of `shards` arrival shards, at most `limit` (the in-flight limit) in all.
    init(shards: Int, limit: Int) {
        self.shards = (0..<max(1, shards)).map { _ in ArrivalWorkers() }
        self.limit = max(1, limit)
    }

    /// The tasks started and not yet ended, over every shard.
    var taskCount: Int { tasks.load(ordering: .relaxed) }

    /// Hands `arrival` of shard `shard` to a waiting task: one of its own shard, or, once the shards have `limit`
    /// tasks, one of another shard. `false`: the caller starts a task with it (counted here; it calls
    /// ``taskEnded()`` when that task ends). Only when every other shard's tasks are ending (their arrivals over)
    /// does a task start at the limit.
    func assign(_ arrival: ArrivalWorkers.Arrival, shard: Int) -> Bool {
        if shards[shard].hand(arrival) { return true }
        if tasks.load(ordering: .relaxed) >= limit {
            for other in shards.indices where other != shard {
                if shards[other].hand(arrival) { return true }
            }
        }
        tasks.add(1, ordering: .relaxed)
        return false
    }

    /// A task that ``assign(_:shard:)`` had the caller start has ended.
    func taskEnded() {
        tasks.subtract(1, ordering: .relaxed)
    }
}

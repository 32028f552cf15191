import Synchronization
import Testing

@testable import APITestLoad

/// The open model's hand-over of arrivals to tasks that ran earlier iterations (``ArrivalWorkers``): an arrival goes
/// to a waiting task, a task's slot is freed only once it waits, and closing ends every waiting and later task.
@Suite struct ArrivalWorkersTests {
    private static let instant = ContinuousClock.now

    @Test func anArrivalWithNoWaitingTaskIsLeftToTheCaller() {
        let workers = ArrivalWorkers()
        #expect(!workers.hand(.init(pick: 0, intended: Self.instant)))
    }

    @Test func aWaitingTaskGetsTheNextArrivalAfterItsSlotIsFreed() async {
        let workers = ArrivalWorkers()
        let released = ReleaseCount()
        let (parked, parkedSignal) = AsyncStream.makeStream(of: Void.self)
        await withTaskGroup(of: ArrivalWorkers.Arrival?.self) { group in
            group.addTask {
                await workers.park {
                    released.value.add(1, ordering: .relaxed)
                    parkedSignal.yield()
                }
            }
            // The slot is released once the task waits: the arrival that slot lets in finds it.
            var signals = parked.makeAsyncIterator()
            await signals.next()
            #expect(released.value.load(ordering: .relaxed) == 1)
            #expect(workers.hand(.init(pick: 7, intended: Self.instant)))
            let received = await group.next() ?? nil
            #expect(received?.pick == 7)
            #expect(received?.intended == Self.instant)
        }
        // Handed over once: no task waits any more.
        #expect(!workers.hand(.init(pick: 8, intended: Self.instant)))
    }

    @Test func closingEndsTheWaitingTasksAndTheOnesThatFinishLater() async {
        let workers = ArrivalWorkers()
        let (parked, parkedSignal) = AsyncStream.makeStream(of: Void.self)
        await withTaskGroup(of: ArrivalWorkers.Arrival?.self) { group in
            for _ in 0..<3 {
                group.addTask { await workers.park { parkedSignal.yield() } }
            }
            var signals = parked.makeAsyncIterator()
            for _ in 0..<3 { await signals.next() }
            workers.close()
            var ended = 0
            for await arrival in group {
                #expect(arrival == nil)
                ended += 1
            }
            #expect(ended == 3)
        }
        // A task that finishes its iteration after the close ends at once, its slot still freed.
        let released = ReleaseCount()
        let next = await workers.park { released.value.add(1, ordering: .relaxed) }
        #expect(next == nil)
        #expect(released.value.load(ordering: .relaxed) == 1)
        #expect(!workers.hand(.init(pick: 0, intended: Self.instant)))
    }
}

/// How many times a parked task's slot was freed.
private final class ReleaseCount: Sendable {
    let value = Atomic<Int>(0)
}

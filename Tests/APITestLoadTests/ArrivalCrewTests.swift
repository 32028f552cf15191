import Testing

@testable import APITestLoad

/// The open model's iteration tasks over its arrival shards (``ArrivalCrew``): a shard's arrival goes to a task of
/// its own shard, a new task starts while the shards have fewer than the in-flight limit, and at the limit an
/// arrival goes to a task waiting in another shard. Before, each shard started a task whenever none of its own
/// waited: two shards sharing 100 slots ran up to 200 tasks, each holding its iterations' async frames.
@Suite struct ArrivalCrewTests {
    private static let instant = ContinuousClock.now

    @Test func belowTheLimitAShardStartsItsOwnTask() async {
        let crew = ArrivalCrew(shards: 2, limit: 2)
        #expect(!crew.assign(.init(pick: 0, intended: Self.instant), shard: 0))
        #expect(crew.taskCount == 1)
        await withTaskGroup(of: ArrivalWorkers.Arrival?.self) { group in
            let (parked, parkedSignal) = AsyncStream.makeStream(of: Void.self)
            group.addTask { await crew.shards[0].park { parkedSignal.yield() } }
            var signals = parked.makeAsyncIterator()
            await signals.next()
            // Shard 1 has no task waiting, and one more fits under the limit: its own, on its own loop.
            #expect(!crew.assign(.init(pick: 1, intended: Self.instant), shard: 1))
            #expect(crew.taskCount == 2)
            // Shard 0's waiting task gets shard 0's next arrival.
            #expect(crew.assign(.init(pick: 2, intended: Self.instant), shard: 0))
            let received = await group.next() ?? nil
            #expect(received == ArrivalWorkers.Arrival(pick: 2, intended: Self.instant))
        }
    }

    @Test func atTheLimitAnArrivalGoesToATaskWaitingInAnotherShard() async {
        let crew = ArrivalCrew(shards: 2, limit: 1)
        #expect(!crew.assign(.init(pick: 0, intended: Self.instant), shard: 0))
        await withTaskGroup(of: ArrivalWorkers.Arrival?.self) { group in
            let (parked, parkedSignal) = AsyncStream.makeStream(of: Void.self)
            group.addTask { await crew.shards[0].park { parkedSignal.yield() } }
            var signals = parked.makeAsyncIterator()
            await signals.next()
            // The old rule started a second task here (none waited in shard 1).
            #expect(crew.assign(.init(pick: 5, intended: Self.instant), shard: 1))
            #expect(crew.taskCount == 1)
            let received = await group.next() ?? nil
            #expect(received == ArrivalWorkers.Arrival(pick: 5, intended: Self.instant))
        }
    }

    @Test func anEndedTaskMakesRoomForANewOne() {
        let crew = ArrivalCrew(shards: 2, limit: 1)
        #expect(!crew.assign(.init(pick: 0, intended: Self.instant), shard: 0))
        crew.taskEnded()
        #expect(crew.taskCount == 0)
        #expect(!crew.assign(.init(pick: 1, intended: Self.instant), shard: 1))
        #expect(crew.taskCount == 1)
    }

    @Test func atTheLimitWithNoTaskWaitingAnywhereATaskStillStarts() {
        // Another shard's tasks end once its arrivals are over: an arrival is never left without a task.
        let crew = ArrivalCrew(shards: 2, limit: 1)
        #expect(!crew.assign(.init(pick: 0, intended: Self.instant), shard: 0))
        crew.shards[0].close()
        #expect(!crew.assign(.init(pick: 1, intended: Self.instant), shard: 1))
        #expect(crew.taskCount == 2)
    }
}

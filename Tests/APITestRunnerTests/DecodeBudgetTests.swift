import Testing

@testable import APITestRunner

/// The run-wide budget for decoded bodies: concurrent tests' large bodies are checked a few at a time.
struct DecodeBudgetTests {
    @Test func concurrentReservationsNeverExceedTheBudget() async {
        let budget = DecodeBudget(capacity: 100 << 20)
        let body = 20 << 20 // costs 80 MiB: one at a time within 100 MiB
        let cost = await budget.cost(ofBody: body)
        #expect(cost == 80 << 20)
        let tracker = Tracker()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await budget.reserve(cost)
                    await tracker.enter()
                    try? await Task.sleep(for: .milliseconds(20))
                    await tracker.leave()
                    await budget.release(cost)
                }
            }
        }
        #expect(await tracker.most == 1)
        #expect(await budget.peak == cost)
    }

    @Test func smallBodiesAreNotCountedAndSeveralMediumOnesShare() async {
        let budget = DecodeBudget(capacity: 64 << 20)
        #expect(await budget.cost(ofBody: 1000) == 0)
        #expect(await budget.cost(ofBody: 1 << 20, buildsTree: true) == 32 << 20)
        let cost = await budget.cost(ofBody: 4 << 20) // 16 MiB: four fit at once
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await budget.reserve(cost)
                    try? await Task.sleep(for: .milliseconds(10))
                    await budget.release(cost)
                }
            }
        }
        #expect(await budget.peak == 64 << 20)
    }

    @Test func aBodyLargerThanTheBudgetRunsAlone() async {
        let budget = DecodeBudget(capacity: 10 << 20)
        let huge = await budget.cost(ofBody: 100 << 20)
        #expect(huge == 10 << 20)
        await budget.reserve(huge)
        let small = await budget.cost(ofBody: 1 << 20)
        let waiter = Task {
            await budget.reserve(small)
            await budget.release(small)
            return true
        }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(await budget.peak == 10 << 20)
        await budget.release(huge)
        #expect(await waiter.value)
    }
}

/// Counts the tasks inside a reservation at once.
private actor Tracker {
    private var inside = 0
    private(set) var most = 0

    func enter() {
        inside += 1
        most = max(most, inside)
    }

    func leave() { inside -= 1 }
}

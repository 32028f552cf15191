import Synchronization

/// Picks tests by weight, spread out rather than in runs, deterministically: weights 3 and 1 give A A B A, A A B A...
///
/// Stride scheduling: test `i`'s `k`-th pick is due at `(2k + 1) / (2 wᵢ)` of a cycle (the middle of its `k`-th
/// share), and the next pick is the test due first (the lower index on a tie), kept in a binary heap: a pick costs
/// O(log n) whatever the suite's size. (The smooth weighted round robin it replaces gives the same sequences for
/// equal weights and for the documented ones, but scanned every test at every pick: a suite of 10,000 tests paid
/// 10,000 steps an iteration.) Over every whole cycle each test is picked exactly its weight's times.
final class WeightedPicker: Sendable {
    /// A test in the heap: its index and how many times it was picked.
    private struct Entry {
        var test: Int
        var picks: Int
    }

    private let weights: [Int]
    private let heap: Mutex<[Entry]>

    /// A picker over tests of `weights` (each at least 1).
    init(weights: [Int]) {
        self.weights = weights.map { Swift.max($0, 1) }
        // Every test is due at its first half-share; in index order the array is already a valid heap for equal
        // weights, and is made one in general.
        var entries = weights.indices.map { Entry(test: $0, picks: 0) }
        let weights = self.weights
        for start in stride(from: entries.count / 2 - 1, through: 0, by: -1) {
            Self.siftDown(&entries, from: start, weights: weights)
        }
        heap = Mutex(entries)
    }

    /// The index of the next pick.
    func next() -> Int {
        heap.withLock { heap in
            guard !heap.isEmpty else { return 0 }
            let picked = heap[0].test
            heap[0].picks += 1
            Self.siftDown(&heap, from: 0, weights: weights)
            return picked
        }
    }

    // MARK: - The heap

    /// Whether `a` is due before `b`: `(2kₐ + 1) / wₐ < (2k_b + 1) / w_b`, compared exactly as products, the lower
    /// index first on a tie.
    private static func isDue(_ a: Entry, before b: Entry, weights: [Int]) -> Bool {
        let left = (2 * a.picks + 1).multipliedFullWidth(by: weights[b.test])
        let right = (2 * b.picks + 1).multipliedFullWidth(by: weights[a.test])
        if left.high != right.high { return left.high < right.high }
        if left.low != right.low { return left.low < right.low }
        return a.test < b.test
    }

    /// Restores the heap below `start` after its entry became due later.
    private static func siftDown(_ heap: inout [Entry], from start: Int, weights: [Int]) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var first = left
            if left + 1 < heap.count, isDue(heap[left + 1], before: heap[left], weights: weights) { first = left + 1 }
            guard isDue(heap[first], before: heap[parent], weights: weights) else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}

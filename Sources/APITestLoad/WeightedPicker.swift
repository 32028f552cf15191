import Synchronization

/// Picks tests by weight, smoothly (nginx's smooth weighted round robin): weights 3 and 1 give A A B A, A A B A...,
/// deterministic and spread out rather than in runs.
final class WeightedPicker: Sendable {
    private let weights: [Int]
    private let total: Int
    private let current: Mutex<[Int]>

    init(weights: [Int]) {
        self.weights = weights
        total = weights.reduce(0, +)
        current = Mutex(Array(repeating: 0, count: weights.count))
    }

    /// The index of the next pick.
    func next() -> Int {
        current.withLock { current in
            var best = 0
            for index in current.indices {
                current[index] += weights[index]
                if current[index] > current[best] { best = index }
            }
            current[best] -= total
            return best
        }
    }
}

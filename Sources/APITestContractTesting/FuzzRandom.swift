/// The seeded generator of `apitest fuzz` (Steele, Lea and Flood's SplitMix64): the same seed gives the same cases on
/// every machine, and each operation and phase draws from its own stream (``stream(_:)``), so the cases of one do not
/// depend on how many another drew or on the order responses arrive in.
package struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting at `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator of its own for `labels` (an operation's index, a phase), derived from this one's seed only.
    package static func stream(seed: UInt64, _ labels: UInt64...) -> FuzzRandom {
        var mixed = FuzzRandom(seed: seed)
        var value = mixed.next()
        for label in labels {
            var step = FuzzRandom(seed: value ^ (label &* 0xD6E8_FEB8_6659_FD93))
            value = step.next()
        }
        return FuzzRandom(seed: value)
    }

    /// A number in `0..<bound` (`bound` > 0): the platform's `random(in:)` is not the same everywhere.
    package mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next() % UInt64(bound))
    }

    /// A number in `range`, both ends included.
    package mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if span == UInt64.max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: next() % (span + 1))
    }

    /// True with probability `numerator` in `denominator`.
    package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One of `items` (not empty).
    package mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// A double in `0..<1`.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}

/// A seeded mutation fuzzer without coverage feedback: the fallback `apitest-fuzz` uses when it is not built with
/// libFuzzer, and what the tests use to run every target on inputs no one wrote.
///
/// Each input is a corpus entry changed by one to four mutations: a byte flipped, set to an interesting value,
/// inserted or removed, a run duplicated, a dictionary token inserted, or a splice with another entry. The same seed
/// gives the same inputs.
package struct MutationFuzzer: Sendable {
    /// The inputs mutations start from; never empty.
    package let corpus: [[UInt8]]
    /// Tokens worth inserting whole (the target's keywords and punctuation).
    package let dictionary: [[UInt8]]
    /// The largest input made.
    package let maximumLength: Int
    private var random: SplitMix64

    /// A fuzzer over `corpus` (an empty corpus starts from one empty input), seeded with `seed`.
    package init(corpus: [[UInt8]], dictionary: [[UInt8]], seed: UInt64, maximumLength: Int = 4096) {
        self.corpus = corpus.isEmpty ? [[]] : corpus
        self.dictionary = dictionary
        self.maximumLength = maximumLength
        self.random = SplitMix64(seed: seed)
    }

    /// The next input.
    package mutating func next() -> [UInt8] {
        var input = corpus[random.below(corpus.count)]
        for _ in 0...random.below(4) {
            mutate(&input)
        }
        if input.count > maximumLength { input.removeLast(input.count - maximumLength) }
        return input
    }

    // MARK: - Mutations

    private static let interestingBytes: [UInt8] = [
        0, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x27, 0x5C, 0x7F, 0x80, 0xC3, 0xFF,
    ]

    private mutating func mutate(_ input: inout [UInt8]) {
        switch random.below(8) {
        case 0 where !input.isEmpty:
            input[random.below(input.count)] ^= UInt8(1 << random.below(8))
        case 1 where !input.isEmpty:
            input[random.below(input.count)] = Self.interestingBytes[random.below(Self.interestingBytes.count)]
        case 2:
            input.insert(UInt8(truncatingIfNeeded: random.next()), at: random.below(input.count + 1))
        case 3 where !input.isEmpty:
            let start = random.below(input.count)
            input.removeSubrange(start..<min(input.count, start + 1 + random.below(8)))
        case 4 where !input.isEmpty:
            // A run repeated: nesting and long chains come from here.
            let start = random.below(input.count)
            let run = Array(input[start..<min(input.count, start + 1 + random.below(16))])
            let times = 1 + random.below(random.below(4) == 0 ? 256 : 8)
            input.insert(contentsOf: Array(repeating: run, count: times).joined(), at: start)
        case 5,
            6 where !dictionary.isEmpty:
            let token = dictionary[random.below(dictionary.count)]
            input.insert(contentsOf: token, at: random.below(input.count + 1))
        case 7:
            let other = corpus[random.below(corpus.count)]
            guard !other.isEmpty else { return }
            let from = random.below(other.count)
            let piece = other[from..<min(other.count, from + 1 + random.below(64))]
            input.insert(contentsOf: piece, at: random.below(input.count + 1))
        default:
            input.append(UInt8(truncatingIfNeeded: random.next()))
        }
    }
}

/// Reads a libFuzzer dictionary (`name="token"` or `"token"` per line, `\\`, `\"` and `\xNN` escapes).
package enum FuzzDictionary {
    /// The tokens of the dictionary `text`; lines that are not entries are skipped.
    package static func tokens(_ text: String) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        for line in text.split(separator: "\n") {
            let bytes = Array(line.utf8)
            guard let open = bytes.firstIndex(of: UInt8(ascii: "\"")), bytes.first != UInt8(ascii: "#"),
                let close = bytes.lastIndex(of: UInt8(ascii: "\"")), close > open
            else { continue }
            var token: [UInt8] = []
            var index = open + 1
            while index < close {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < close {
                    let escaped = bytes[index + 1]
                    if escaped == UInt8(ascii: "x"), index + 3 < close,
                        let value = UInt8(String(decoding: bytes[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
                    {
                        token.append(value)
                        index += 4
                    } else {
                        token.append(escaped)
                        index += 2
                    }
                } else {
                    token.append(byte)
                    index += 1
                }
            }
            if !token.isEmpty { tokens.append(token) }
        }
        return tokens
    }
}

/// SplitMix64: a small, fast, seedable generator (Steele, Lea and Flood, 2014).
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

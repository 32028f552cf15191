/// A regular expression of the common subset of ECMA-262 compiled to a Thompson automaton that answers "does it
/// match anywhere?" for printable ASCII text without `NSRegularExpression`: what JSON Schema's `pattern` asks of
/// every value (an identifier, a date, `^[0-9]+\.json$`), thousands of times a run.
///
/// It accepts literals, `.`, `\d \D \w \W \s \S`, escaped punctuation, `\t \n \r \f \v`, classes with ranges and
/// those escapes, groups (`(...)`, `(?:...)`), alternation, `^`, `$` and the quantifiers `* + ? {n} {n,} {n,m}`
/// (greedy or lazy: a yes/no answer does not depend on which). Anything else (back-references, look-around,
/// `\b`, `\u`, nested or ICU set operations, non-ASCII pattern text) gives no program, and ``SchemaRegex`` uses ICU
/// as before. Text outside 0x20–0x7E also goes to ICU, so line terminators and Unicode classes never reach this
/// matcher; on printable ASCII it answers as ICU does with ``SchemaRegex``'s translation of the escapes (the tests
/// compare both on generated patterns and inputs).
struct ASCIIPattern: Sendable {
    // MARK: - Program

    /// One state of the automaton.
    enum State: Sendable {
        /// Consumes one byte of `set`, then goes to `next`.
        case byte(ByteSet, next: Int)
        /// Goes to both states without consuming anything.
        case split(Int, Int)
        /// Goes to `next` without consuming anything.
        case jump(Int)
        /// Goes on only at the start of the text (`^`).
        case atStart(next: Int)
        /// Goes on only at the end of the text (`$`).
        case atEnd(next: Int)
        /// The pattern has matched.
        case match
    }

    /// The states; a search starts at `start`.
    let states: [State]
    /// The first state.
    let start: Int
    /// Whether the first state is `^`: an attempt can start only at the start of the text.
    let isAnchoredAtStart: Bool
    /// The states made deterministic, when not too many: what a search runs.
    let dfa: DFA?

    /// The most states a pattern may compile to (counted repetitions are copied out); larger patterns use ICU.
    static let maximumStates = 2_000

    /// Compiles `source`, or nil when it is outside the subset (or too large).
    init?(_ source: String) {
        guard let node = Parser.parse(source) else { return nil }
        var builder = Builder()
        let match = builder.add(.match)
        guard let start = builder.compile(node, next: match), builder.states.count <= Self.maximumStates else {
            return nil
        }
        self.states = builder.states
        self.start = start
        if case .atStart = builder.states[start] { isAnchoredAtStart = true } else { isAnchoredAtStart = false }
        dfa = DFA(states: builder.states, start: start, isAnchoredAtStart: isAnchoredAtStart)
    }

    // MARK: - Matching

    /// Whether the pattern matches somewhere in `text`; nil when `text` holds a byte outside 0x20–0x7E (then ICU
    /// must answer).
    func matches(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            for byte in bytes where byte < 0x20 || byte > 0x7E { return nil }
            return dfa?.search(bytes) ?? search(bytes)
        }
    }

    /// Whether the pattern matches somewhere in the text whose UTF-8 bytes are `bytes`; nil when one is outside
    /// 0x20–0x7E (as ``matches(_:)``).
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        for byte in bytes where byte < 0x20 || byte > 0x7E { return nil }
        return dfa?.search(bytes) ?? search(bytes)
    }

    /// Whether the pattern matches somewhere in `text` by simulating the automaton state by state, without its
    /// deterministic form (the tests hold the two to the same answers); nil as ``matches(_:)``.
    func matchesSimulating(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            for byte in bytes where byte < 0x20 || byte > 0x7E { return nil }
            return search(bytes)
        }
    }

    /// Simulates the automaton over `bytes`, starting a new attempt at every position.
    private func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = states.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * count) { storage in
            // Two lists of active states, a stack for closures, and a generation stamp per state.
            var current = UnsafeMutableBufferPointer(rebasing: storage[0..<count])
            var next = UnsafeMutableBufferPointer(rebasing: storage[count..<(2 * count)])
            let stack = UnsafeMutableBufferPointer(rebasing: storage[(2 * count)..<(3 * count)])
            let marks = UnsafeMutableBufferPointer(rebasing: storage[(3 * count)..<(4 * count)])
            marks.initialize(repeating: -1)
            var currentCount = 0
            var generation = 0
            var matched = false
            add(start, at: 0, of: bytes.count, into: current, &currentCount, stack, marks, generation, &matched)
            if matched { return true }
            for position in 0..<bytes.count {
                let byte = bytes[position]
                generation += 1
                var nextCount = 0
                for index in 0..<currentCount {
                    guard case .byte(let set, let target) = states[current[index]], set.contains(byte) else { continue }
                    add(
                        target, at: position + 1, of: bytes.count, into: next, &nextCount, stack, marks, generation,
                        &matched)
                    if matched { return true }
                }
                // A pattern that starts with `^` starts an attempt at the first byte only (a later one would stop
                // at once), so with no attempt left it cannot match.
                if !isAnchoredAtStart {
                    add(
                        start, at: position + 1, of: bytes.count, into: next, &nextCount, stack, marks, generation,
                        &matched)
                    if matched { return true }
                } else if nextCount == 0 {
                    return false
                }
                swap(&current, &next)
                currentCount = nextCount
            }
            return false
        }
    }

    /// Adds `state` and every state reachable from it without consuming a byte (at `position` of a text of
    /// `length` bytes) to `list`; sets `matched` when the match state is reached.
    private func add(
        _ state: Int, at position: Int, of length: Int, into list: UnsafeMutableBufferPointer<Int>,
        _ listCount: inout Int, _ stack: UnsafeMutableBufferPointer<Int>, _ marks: UnsafeMutableBufferPointer<Int>,
        _ generation: Int, _ matched: inout Bool
    ) {
        var depth = 0
        func push(_ state: Int) {
            guard marks[state] != generation else { return }
            marks[state] = generation
            stack[depth] = state
            depth += 1
        }
        push(state)
        while depth > 0 {
            depth -= 1
            let state = stack[depth]
            switch states[state] {
            case .byte:
                list[listCount] = state
                listCount += 1
            case .split(let first, let second):
                push(second)
                push(first)
            case .jump(let target):
                push(target)
            case .atStart(let target):
                if position == 0 { push(target) }
            case .atEnd(let target):
                if position == length { push(target) }
            case .match:
                matched = true
                return
            }
        }
    }
}

// MARK: - Byte sets

extension ASCIIPattern {
    /// A set of ASCII bytes (0–127).
    struct ByteSet: Sendable, Equatable {
        /// Bytes 0–63 and 64–127, one bit each.
        var low: UInt64 = 0
        var high: UInt64 = 0

        /// The empty set.
        init() {}

        /// The bytes of `ranges` (inclusive).
        init(_ ranges: ClosedRange<UInt8>...) {
            for range in ranges { insert(range) }
        }

        /// Whether `byte` is in the set.
        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
        }

        /// Adds the bytes of `range`.
        mutating func insert(_ range: ClosedRange<UInt8>) {
            for byte in range where byte < 128 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }

        /// Adds every byte of `other`.
        mutating func formUnion(_ other: ByteSet) {
            low |= other.low
            high |= other.high
        }

        /// The bytes 0–127 not in the set.
        var inverted: ByteSet {
            var result = ByteSet()
            result.low = ~low
            result.high = ~high
            return result
        }

        /// `[0-9]`.
        static let digits = ByteSet(0x30...0x39)
        /// `[A-Za-z0-9_]`.
        static let word = ByteSet(0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A)
        /// ASCII white space as ICU's `\s` has it: tab, line feed, vertical tab, form feed, carriage return, space.
        static let space = ByteSet(0x09...0x0D, 0x20...0x20)
        /// What `.` matches: everything but the line terminators.
        static let dot = ByteSet(0x0A...0x0D).inverted
    }
}

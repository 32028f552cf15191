// MARK: - A deterministic automaton

extension ASCIIPattern {
    /// The automaton's states made deterministic once, when the pattern compiles (subset construction over the
    /// classes of printable bytes the pattern tells apart): a search then reads one table entry a byte instead of
    /// following every active state and its closure (a path parameter's `^[0-9]+\.json$` is checked for every
    /// request a contract reads).
    ///
    /// A state stands for the automaton's states that the text read so far leaves active before their closure (with
    /// a new attempt at each position for a pattern not anchored at the start), and whether it is the first
    /// position (where `^` holds). For each it knows whether the closure reaches the match in the middle of the
    /// text, and at its end (where `$` holds too). Not made when the pattern has many states, or the subsets grow
    /// past ``maximumStates``: the search simulates the automaton as before.
    struct DFA: Sendable {
        /// The most deterministic states a pattern may have.
        static let maximumStates = 256
        /// Patterns of more automaton states than this are not made deterministic.
        static let maximumSourceStates = 256
        /// The most steps the construction may take (a step: one state's place in a closure, or one consuming state
        /// looked at for one class), so that a document of many large patterns loads in bounded time.
        static let maximumConstructionSteps = 100_000

        /// The class of each printable byte (0x20–0x7E, at `byte - 0x20`).
        let classes: [UInt8]
        /// How many classes there are.
        let classCount: Int
        /// The next state, at `state * classCount + class`.
        let next: [UInt16]
        /// Whether the closure of a state reaches the match before the end of the text.
        let matchesBeforeEnd: [Bool]
        /// Whether it reaches the match at the end of the text.
        let matchesAtEnd: [Bool]
        /// Whether no attempt is left in a state (a pattern anchored at the start that failed): nothing can match.
        let isDead: [Bool]

        /// The automaton of a pattern's `states`, searched from `start`; nil when it would be too large.
        init?(states: [State], start: Int, isAnchoredAtStart: Bool) {
            guard states.count <= Self.maximumSourceStates else { return nil }
            // Byte classes: printable bytes that every consuming state treats alike.
            var sets: [ByteSet] = []
            for state in states {
                if case .byte(let set, _) = state, !sets.contains(set) { sets.append(set) }
            }
            var classes = [UInt8](repeating: 0, count: 95)
            var signatures: [[Bool]] = []
            for byte in UInt8(0x20)...UInt8(0x7E) {
                let signature = sets.map { $0.contains(byte) }
                if let known = signatures.firstIndex(of: signature) {
                    classes[Int(byte) - 0x20] = UInt8(known)
                } else {
                    guard signatures.count < 95 else { return nil }
                    signatures.append(signature)
                    classes[Int(byte) - 0x20] = UInt8(signatures.count - 1)
                }
            }
            let classCount = signatures.count
            let representatives = (0..<classCount).map { kind in
                UInt8(classes.firstIndex(of: UInt8(kind))! + 0x20)
            }

            // Subset construction. A deterministic state: the seeds (sorted), and whether it is the first position.
            var seeds: [[Int]] = [[start]]
            var known: [[Int]: Int] = [:]
            var next: [UInt16] = []
            var matchesBeforeEnd: [Bool] = []
            var matchesAtEnd: [Bool] = []
            var isDead: [Bool] = []
            var current = 0
            var steps = 0
            while current < seeds.count {
                let atStart = current == 0
                let middle = Self.closure(of: seeds[current], in: states, atStart: atStart, atEnd: false)
                let end = Self.closure(of: seeds[current], in: states, atStart: atStart, atEnd: true)
                steps += 2 * states.count + classCount * middle.consuming.count
                guard steps <= Self.maximumConstructionSteps else { return nil }
                matchesBeforeEnd.append(middle.matched)
                matchesAtEnd.append(end.matched)
                isDead.append(seeds[current].isEmpty)
                for byte in representatives {
                    var targets: Set<Int> = []
                    for state in middle.consuming {
                        if case .byte(let set, let target) = states[state], set.contains(byte) {
                            targets.insert(target)
                        }
                    }
                    if !isAnchoredAtStart { targets.insert(start) }
                    let key = targets.sorted()
                    if let index = known[key] {
                        next.append(UInt16(index))
                    } else {
                        guard seeds.count < Self.maximumStates else { return nil }
                        known[key] = seeds.count
                        next.append(UInt16(seeds.count))
                        seeds.append(key)
                    }
                }
                current += 1
            }
            self.classes = classes
            self.classCount = classCount
            self.next = next
            self.matchesBeforeEnd = matchesBeforeEnd
            self.matchesAtEnd = matchesAtEnd
            self.isDead = isDead
        }

        /// The consuming states reachable from `seeds` without consuming a byte, and whether the match is.
        private static func closure(
            of seeds: [Int], in states: [State], atStart: Bool, atEnd: Bool
        ) -> (consuming: [Int], matched: Bool) {
            var visited = [Bool](repeating: false, count: states.count)
            var stack = seeds
            var consuming: [Int] = []
            var matched = false
            while let state = stack.popLast() {
                guard !visited[state] else { continue }
                visited[state] = true
                switch states[state] {
                case .byte: consuming.append(state)
                case .split(let first, let second): stack += [second, first]
                case .jump(let target): stack.append(target)
                case .atStart(let target): if atStart { stack.append(target) }
                case .atEnd(let target): if atEnd { stack.append(target) }
                case .match: matched = true
                }
            }
            return (consuming, matched)
        }

        /// Whether the pattern matches somewhere in `bytes`, all of them printable ASCII.
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var state = 0
            for byte in bytes {
                if matchesBeforeEnd[state] { return true }
                if isDead[state] { return false }
                state = Int(next[state &* classCount &+ Int(classes[Int(byte) &- 0x20])])
            }
            return matchesAtEnd[state]
        }
    }
}

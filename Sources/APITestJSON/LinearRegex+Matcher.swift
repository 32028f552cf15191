// MARK: - Compiler

extension LinearRegex {
    /// Turns a ``Node`` into instructions; refuses programs above ``LinearRegex/maximumInstructions``.
    struct Compiler {
        private(set) var program: [Instruction] = []

        /// The whole program: group 0 around the pattern, then `match`.
        mutating func emitSearch(_ node: Node) throws(SyntaxError) {
            try append(.save(0))
            try emit(node)
            try append(.save(1))
            try append(.match)
        }

        @discardableResult
        private mutating func append(_ instruction: Instruction) throws(SyntaxError) -> Int {
            guard program.count < LinearRegex.maximumInstructions else {
                throw SyntaxError(kind: .tooLarge, offset: 0)
            }
            program.append(instruction)
            return program.count - 1
        }

        private mutating func emit(_ node: Node) throws(SyntaxError) {
            switch node {
            case .empty:
                break
            case .consume(let set):
                try append(.consume(set.finalized()))
            case .assert(let assertion):
                try append(.assert(assertion))
            case .capture(let group, let body):
                try append(.save(2 * group))
                try emit(body)
                try append(.save(2 * group + 1))
            case .concat(let items):
                for item in items { try emit(item) }
            case .alternate(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    guard index < branches.count - 1 else {
                        try emit(branch)
                        break
                    }
                    let split = try append(.split(0, 0))
                    try emit(branch)
                    jumps.append(try append(.jump(0)))
                    program[split] = .split(split + 1, program.count)
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let body, let low, let high, let greedy):
                for _ in 0..<low { try emit(body) }
                if let high {
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(try append(.split(0, 0)))
                        try emit(body)
                    }
                    let end = program.count
                    for split in splits { program[split] = greedy ? .split(split + 1, end) : .split(end, split + 1) }
                } else {
                    // L: split(body, out); body; split(L, out). An iteration that matched nothing comes back to L
                    // where it has already been, so it goes on at `out` with what it captured: the loop ends after
                    // an empty iteration, as a backtracking engine's does (`(a*)+b` on "ab" leaves group 1 empty).
                    let loop = try append(.split(0, 0))
                    try emit(body)
                    let back = try append(.split(0, 0))
                    let end = program.count
                    program[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
                    program[back] = greedy ? .split(loop, end) : .split(end, loop)
                }
            }
        }
    }
}

// MARK: - Matching

extension LinearRegex {
    /// A match: the range of the whole match (group 0) and of each group, nil for a group that took no part.
    package typealias Match = [Range<String.Index>?]

    /// The first (leftmost, then highest-priority) match in `text` starting at or after `start` (a scalar
    /// boundary; the text before it still counts for `\b` and `^`), or nil; `steps` grows by the steps taken.
    package func firstMatch(
        in text: String, from start: String.Index? = nil, steps: inout Int
    ) throws(Interruption) -> Match? {
        var machine = Machine(
            program: program, masks: asciiMasks, slotCount: 2 * (captureCount + 1), firstScalars: firstScalars)
        defer { steps += machine.steps }
        return try machine.run(text, from: start ?? text.startIndex)
    }

    /// The first match in `text`, or nil.
    package func firstMatch(in text: String) throws(Interruption) -> Match? {
        var steps = 0
        return try firstMatch(in: text, steps: &steps)
    }

    /// Every match in `text` from left to right, not overlapping; after an empty match the search goes on one
    /// scalar further (as ICU does). `body` may stop the walk by returning false.
    ///
    /// One search is linear, but a search per match could scan the rest of the text each time (`(a.*b)|a` on
    /// `aaa…`: its first alternative runs to the end before `a` wins), so the walk may take at most
    /// ``walkScans`` times the steps of one scan of the whole text, and ends with ``Interruption/stepLimit(_:)``
    /// beyond them.
    package func forEachMatch(
        in text: String, steps: inout Int, _ body: (Match) throws(Interruption) -> Bool
    ) throws(Interruption) {
        var machine = Machine(
            program: program, masks: asciiMasks, slotCount: 2 * (captureCount + 1), firstScalars: firstScalars)
        defer { steps += machine.steps }
        let (scan, overflow) = (2 * program.count + 2).multipliedReportingOverflow(by: text.utf8.count + 1)
        let limit = overflow ? Int.max : scan.multipliedReportingOverflow(by: Self.walkScans).partialValue
        var position = text.startIndex
        while position <= text.endIndex {
            guard machine.steps <= limit else { throw .stepLimit(limit) }
            guard let match = try machine.run(text, from: position), let whole = match[0] else { return }
            guard try body(match) else { return }
            if whole.isEmpty {
                guard whole.upperBound < text.endIndex else { return }
                position = text.unicodeScalars.index(after: whole.upperBound)
            } else {
                position = whole.upperBound
            }
        }
    }

    /// How many scans of the whole text finding every match may cost.
    static let walkScans = 4

    /// The Pike VM: one pass over the text, every live thread stepped at each scalar, at most one thread per
    /// instruction, so the work is at most the program's size per scalar.
    private struct Machine {
        let program: [Instruction]
        let masks: [ASCIIMask]
        let slotCount: Int
        let firstScalars: FirstScalars?
        /// Instructions and threads processed.
        var steps = 0

        private struct Thread {
            var pc: Int
            var slots: [String.Index?]
        }

        /// Where the closure of a list was last computed, by instruction.
        private var marks: [Int]
        private var generation = 0
        private var stack: [Thread] = []

        init(program: [Instruction], masks: [ASCIIMask], slotCount: Int, firstScalars: FirstScalars?) {
            self.program = program
            self.masks = masks
            self.slotCount = slotCount
            self.firstScalars = firstScalars
            self.marks = [Int](repeating: -1, count: program.count)
        }

        mutating func run(_ text: String, from start: String.Index) throws(Interruption) -> Match? {
            var cursor = Cursor(text, from: start)
            var current: [Thread] = []
            var next: [Thread] = []
            var matched: [String.Index?]?
            let empty = [String.Index?](repeating: nil, count: slotCount)
            var lastCheck = 0
            generation += 1
            while true {
                if matched == nil {
                    if current.isEmpty, let firstScalars {
                        let passed = cursor.skip(to: firstScalars)
                        // A new position: what an earlier closure marked must not count here.
                        if passed > 0 { (steps, generation) = (steps + passed, generation + 1) }
                    }
                    addThread(&current, Thread(pc: 0, slots: empty), at: cursor.place)
                }
                if current.isEmpty && matched != nil { break }
                if steps - lastCheck > LinearRegex.cancellationInterval {
                    lastCheck = steps
                    if Task.isCancelled { throw .cancelled }
                }
                let scalar = cursor.place.current
                let following = cursor.following
                generation += 1
                for thread in current {
                    steps += 1
                    if case .match = program[thread.pc] {
                        matched = thread.slots
                    } else {
                        // Only `consume` and `match` instructions hold threads.
                        if let scalar, LinearRegex.consumes(program, masks, thread.pc, scalar) {
                            addThread(&next, Thread(pc: thread.pc + 1, slots: thread.slots), at: following)
                        }
                        continue
                    }
                    // A match cuts off every thread of lower priority.
                    break
                }
                if scalar == nil { break }
                swap(&current, &next)
                next.removeAll(keepingCapacity: true)
                cursor.move(to: following)
            }
            return matched.map { slots in
                stride(from: 0, to: slotCount, by: 2).map { slot in
                    guard let lower = slots[slot], let upper = slots[slot + 1] else { return nil }
                    return lower..<upper
                }
            }
        }

        /// Adds `thread` and what it reaches without consuming to `list`, in priority order.
        private mutating func addThread(_ list: inout [Thread], _ thread: Thread, at place: Place) {
            stack.append(thread)
            while var thread = stack.popLast() {
                while marks[thread.pc] != generation {
                    marks[thread.pc] = generation
                    steps += 1
                    switch program[thread.pc] {
                    case .jump(let target):
                        thread.pc = target
                    case .split(let preferred, let other):
                        stack.append(Thread(pc: other, slots: thread.slots))
                        thread.pc = preferred
                    case .save(let slot):
                        thread.slots[slot] = place.index
                        thread.pc += 1
                    case .assert(let assertion):
                        // A failed assertion ends the thread: its instruction is marked, so the loop stops.
                        if LinearRegex.holds(assertion, at: place) { thread.pc += 1 }
                    case .consume, .match:
                        // Marked: the loop stops after this.
                        list.append(thread)
                    }
                }
            }
        }
    }
}

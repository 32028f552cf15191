// MARK: - Walking the text

extension LinearRegex {
    /// What the assertions see at one position of the text.
    struct Place {
        var index: String.Index
        var previous: Unicode.Scalar?
        var current: Unicode.Scalar?
        var atTextStart: Bool
        var atFinalTerminator: Bool
    }

    /// A position in the text that moves one scalar at a time, knowing what the assertions need.
    struct Cursor {
        private let scalars: String.UnicodeScalarView
        private let utf8: String.UTF8View
        /// Where a line terminator that ends the text starts (`\r\n` counts as one), for `$` and `\Z`.
        private let finalTerminator: String.Index?
        /// The current position.
        private(set) var place: Place

        init(_ text: String, from start: String.Index) {
            scalars = text.unicodeScalars
            utf8 = text.utf8
            let end = scalars.endIndex
            var finalTerminator: String.Index?
            if start < end {
                let last = scalars.index(before: end)
                if LinearRegex.isLineTerminator(scalars[last]) {
                    finalTerminator = last
                    if scalars[last] == "\n", last > scalars.startIndex {
                        let before = scalars.index(before: last)
                        if scalars[before] == "\r" { finalTerminator = before }
                    }
                }
            }
            self.finalTerminator = finalTerminator
            place = Place(
                index: start, previous: start > scalars.startIndex ? scalars[scalars.index(before: start)] : nil,
                current: start < end ? scalars[start] : nil, atTextStart: start == scalars.startIndex,
                atFinalTerminator: start == finalTerminator)
        }

        /// The place one scalar further (the same place at the end).
        var following: Place {
            guard let current = place.current else { return place }
            let index = scalars.index(after: place.index)
            return Place(
                index: index, previous: current, current: index < scalars.endIndex ? scalars[index] : nil,
                atTextStart: false, atFinalTerminator: index == finalTerminator)
        }

        mutating func move(to next: Place) {
            place = next
        }

        /// Moves on while the current scalar is in none of `first`'s sets (no match can start there); how many
        /// scalars it passed.
        mutating func skip(to first: FirstScalars) -> Int {
            var passed = 0
            var index = place.index
            var previous = place.previous
            while index < utf8.endIndex {
                // An ASCII byte is its scalar, answered by the bitmap: no decoding and no set for most texts.
                let byte = utf8[index]
                let scalar: Unicode.Scalar
                if byte < 0x80 {
                    if first.containsASCII(byte) { break }
                    scalar = Unicode.Scalar(byte)
                    index = utf8.index(after: index)
                } else {
                    scalar = scalars[index]
                    if first.sets.contains(where: { $0.contains(scalar) }) { break }
                    index = scalars.index(after: index)
                }
                previous = scalar
                passed += 1
            }
            guard passed > 0 else { return 0 }
            place = Place(
                index: index, previous: previous, current: index < scalars.endIndex ? scalars[index] : nil,
                atTextStart: false, atFinalTerminator: index == finalTerminator)
            return passed
        }
    }

    /// The sets the first scalar of every match is in, and their union over ASCII as a bitmap.
    struct FirstScalars: Sendable {
        let sets: [ScalarSet]
        private let low: UInt64
        private let high: UInt64

        init(_ sets: [ScalarSet]) {
            self.sets = sets
            var (low, high): (UInt64, UInt64) = (0, 0)
            for value in 0..<128 where sets.contains(where: { $0.contains(Unicode.Scalar(UInt8(value))) }) {
                if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
            }
            (self.low, self.high) = (low, high)
        }

        /// Whether an ASCII scalar may start a match.
        func containsASCII(_ byte: UInt8) -> Bool {
            (byte < 64 ? low >> UInt64(byte) : high >> UInt64(byte - 64)) & 1 == 1
        }
    }

    /// Whether `assertion` holds at `place`.
    static func holds(_ assertion: Assertion, at place: Place) -> Bool {
        switch assertion {
        case .startOfText: return place.atTextStart
        case .endOfText: return place.current == nil
        case .endOfTextOrFinalTerminator: return place.current == nil || place.atFinalTerminator
        case .startOfLine:
            guard let previous = place.previous else { return true }
            return LinearRegex.isLineTerminator(previous) && !(previous == "\r" && place.current == "\n")
        case .endOfLine:
            guard let current = place.current else { return true }
            return LinearRegex.isLineTerminator(current) && !(current == "\n" && place.previous == "\r")
        case .wordBoundary, .notWordBoundary:
            let before = place.previous.map(LinearRegex.isWord) ?? false
            let after = place.current.map(LinearRegex.isWord) ?? false
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    // MARK: - First scalars

    /// The sets one of which the first scalar of any match is in, or nil when a match may be empty (then every
    /// position must be tried). Where no thread is alive, the search skips every scalar that
    /// is in none of them.
    static func firstScalars(of program: [Instruction]) -> FirstScalars? {
        var sets: [ScalarSet] = []
        var seen = Set<Int>()
        var stack = [0]
        while let pc = stack.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch program[pc] {
            case .consume(let set): sets.append(set)
            case .split(let first, let second): stack += [second, first]
            case .jump(let target): stack.append(target)
            // An assertion consumes nothing: the scalar after it is still the match's first.
            case .save, .assert: stack.append(pc + 1)
            case .match: return nil
            }
            guard sets.count <= 16 else { return nil }
        }
        return FirstScalars(sets)
    }
}

// MARK: - Whether it matches

extension LinearRegex {
    /// Whether the pattern matches somewhere in `text`; `steps` grows by the steps taken. Faster than
    /// ``firstMatch(in:from:steps:)``: no capture is kept, and the search ends at the first match found.
    package func matches(_ text: String, steps: inout Int) throws(Interruption) -> Bool {
        var recognizer = Recognizer(program: program, masks: asciiMasks, firstScalars: firstScalars)
        defer { steps += recognizer.steps }
        return try recognizer.run(text)
    }

    /// Whether the pattern matches somewhere in `text`.
    package func matches(_ text: String) throws(Interruption) -> Bool {
        var steps = 0
        return try matches(text, steps: &steps)
    }

    /// The Pike VM without captures: threads are instructions only.
    private struct Recognizer {
        let program: [Instruction]
        let masks: [ASCIIMask]
        let firstScalars: FirstScalars?
        var steps = 0
        private var marks: [Int]
        private var generation = 0
        private var stack: [Int] = []

        init(program: [Instruction], masks: [ASCIIMask], firstScalars: FirstScalars?) {
            self.program = program
            self.masks = masks
            self.firstScalars = firstScalars
            marks = [Int](repeating: -1, count: program.count)
        }

        mutating func run(_ text: String) throws(Interruption) -> Bool {
            var cursor = Cursor(text, from: text.startIndex)
            var current: [Int] = []
            var next: [Int] = []
            var lastCheck = 0
            generation += 1
            while true {
                if current.isEmpty, let firstScalars {
                    let passed = cursor.skip(to: firstScalars)
                    // A new position: what an earlier closure marked must not count here.
                    if passed > 0 { (steps, generation) = (steps + passed, generation + 1) }
                }
                if add(0, to: &current, at: cursor.place) { return true }
                if steps - lastCheck > LinearRegex.cancellationInterval {
                    lastCheck = steps
                    if Task.isCancelled { throw .cancelled }
                }
                guard let scalar = cursor.place.current else { return false }
                let following = cursor.following
                generation += 1
                for pc in current {
                    steps += 1
                    guard LinearRegex.consumes(program, masks, pc, scalar) else { continue }
                    if add(pc + 1, to: &next, at: following) { return true }
                }
                swap(&current, &next)
                next.removeAll(keepingCapacity: true)
                cursor.move(to: following)
            }
        }

        /// Adds `pc` and what it reaches without consuming; true when that reaches `match`.
        private mutating func add(_ pc: Int, to list: inout [Int], at place: Place) -> Bool {
            stack.append(pc)
            while var pc = stack.popLast() {
                while marks[pc] != generation {
                    marks[pc] = generation
                    steps += 1
                    switch program[pc] {
                    case .jump(let target): pc = target
                    case .split(let preferred, let other):
                        stack.append(other)
                        pc = preferred
                    case .save: pc += 1
                    case .assert(let assertion):
                        if LinearRegex.holds(assertion, at: place) { pc += 1 }
                    case .consume: list.append(pc)
                    case .match:
                        stack.removeAll(keepingCapacity: true)
                        return true
                    }
                }
            }
            return false
        }
    }
}

// MARK: - Syntax

extension ASCIIPattern {
    /// A parsed pattern.
    indirect enum Node: Sendable {
        /// Nothing (an empty alternative).
        case empty
        /// One byte of a set.
        case set(ByteSet)
        /// `^`.
        case start
        /// `$`.
        case end
        /// One after the other.
        case sequence([Node])
        /// One of them.
        case alternation([Node])
        /// `node` at least `minimum` times and at most `maximum` (nil: no limit).
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    /// Reads the supported subset of ECMA-262 pattern syntax; nil for anything outside it.
    struct Parser {
        /// The pattern's bytes.
        private let bytes: [UInt8]
        /// The next byte to read.
        private var position = 0

        /// The largest count `{n,m}` may give before the pattern is left to ICU.
        private static let maximumCount = 1_000

        /// Parses `source`; nil when it uses anything outside the subset or is not a valid pattern.
        static func parse(_ source: String) -> Node? {
            var parser = Parser(bytes: Array(source.utf8))
            guard parser.bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }), let node = parser.alternation(),
                parser.position == parser.bytes.count
            else { return nil }
            return node
        }

        private init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        // MARK: - Structure

        /// `a|b|...` up to a `)` or the end.
        private mutating func alternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = sequence() else { return nil }
                branches.append(branch)
                guard peek == UInt8(ascii: "|") else { break }
                position += 1
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        /// Quantified atoms up to a `|`, a `)` or the end.
        private mutating func sequence() -> Node? {
            var items: [Node] = []
            while let byte = peek, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                guard let item = quantified() else { return nil }
                items.append(item)
            }
            switch items.count {
            case 0: return .empty
            case 1: return items[0]
            default: return .sequence(items)
            }
        }

        /// An atom and at most one quantifier (with its lazy `?`).
        private mutating func quantified() -> Node? {
            guard let atom = atom() else { return nil }
            guard let byte = peek else { return atom }
            var bounds: (Int, Int?)
            switch byte {
            case UInt8(ascii: "*"): bounds = (0, nil)
            case UInt8(ascii: "+"): bounds = (1, nil)
            case UInt8(ascii: "?"): bounds = (0, 1)
            case UInt8(ascii: "{"):
                guard let counted = count() else { return nil }
                bounds = counted
                position -= 1 // count() stops after `}`; the shared step below moves past it again
            default: return atom
            }
            position += 1
            if peek == UInt8(ascii: "?") { position += 1 }
            // A quantified anchor, or a second quantifier (ICU's possessive `*+`), is left to ICU.
            if case .start = atom { return nil }
            if case .end = atom { return nil }
            if let next = peek,
                [UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{")].contains(next)
            {
                return nil
            }
            return .repetition(atom, minimum: bounds.0, maximum: bounds.1)
        }

        /// `{n}`, `{n,}` or `{n,m}` at the current `{`; the position ends after the `}`.
        private mutating func count() -> (Int, Int?)? {
            position += 1
            guard let minimum = number() else { return nil }
            var maximum: Int? = minimum
            if peek == UInt8(ascii: ",") {
                position += 1
                maximum = peek == UInt8(ascii: "}") ? nil : number()
                if maximum == nil && peek != UInt8(ascii: "}") { return nil }
            }
            guard peek == UInt8(ascii: "}") else { return nil }
            position += 1
            if let maximum, maximum < minimum { return nil }
            return (minimum, maximum)
        }

        /// A decimal number no larger than ``maximumCount``.
        private mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let byte = peek, (0x30...0x39).contains(byte) {
                value = value * 10 + Int(byte - 0x30)
                digits += 1
                position += 1
                if value > Self.maximumCount { return nil }
            }
            return digits > 0 ? value : nil
        }

        // MARK: - Atoms

        /// One atom: a group, a class, `.`, an anchor, an escape or a literal.
        private mutating func atom() -> Node? {
            guard let byte = peek else { return nil }
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                if peek == UInt8(ascii: "?") {
                    // Only `(?:`; look-around and named groups are left to ICU.
                    guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ":") else { return nil }
                    position += 2
                }
                guard let inner = alternation(), peek == UInt8(ascii: ")") else { return nil }
                position += 1
                return inner
            case UInt8(ascii: "["):
                return characterClass().map { .set($0) }
            case UInt8(ascii: "."):
                return .set(.dot)
            case UInt8(ascii: "^"):
                return .start
            case UInt8(ascii: "$"):
                return .end
            case UInt8(ascii: "\\"):
                guard let escaped = escape(inClass: false) else { return nil }
                return .set(escaped)
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "|"):
                return nil
            default:
                return .set(ByteSet(byte...byte))
            }
        }

        /// The escape after a `\`: a class escape, a control escape or escaped punctuation.
        private mutating func escape(inClass: Bool) -> ByteSet? {
            guard let byte = peek else { return nil }
            position += 1
            switch byte {
            case UInt8(ascii: "d"): return .digits
            case UInt8(ascii: "D"): return ByteSet.digits.inverted
            case UInt8(ascii: "w"): return .word
            case UInt8(ascii: "W"): return ByteSet.word.inverted
            case UInt8(ascii: "s"): return .space
            case UInt8(ascii: "S"): return inClass ? nil : ByteSet.space.inverted
            case UInt8(ascii: "t"): return ByteSet(0x09...0x09)
            case UInt8(ascii: "n"): return ByteSet(0x0A...0x0A)
            case UInt8(ascii: "v"): return ByteSet(0x0B...0x0B)
            case UInt8(ascii: "f"): return ByteSet(0x0C...0x0C)
            case UInt8(ascii: "r"): return ByteSet(0x0D...0x0D)
            default:
                // Letters and digits are other escapes (`\b`, `\1`, `\u`, `\p`...); punctuation stands for itself.
                let isAlphanumeric =
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                return isAlphanumeric || byte == UInt8(ascii: "_") ? nil : ByteSet(byte...byte)
            }
        }

        /// The class after a `[`, up to and including its `]`.
        private mutating func characterClass() -> ByteSet? {
            var negated = false
            if peek == UInt8(ascii: "^") {
                negated = true
                position += 1
            }
            // `[]` and `[^]` mean different things to ECMA-262 and ICU, and ICU reads `[:name:]` as a property:
            // left to ICU.
            guard peek != UInt8(ascii: "]"), peek != UInt8(ascii: ":") else { return nil }
            var afterRange = false
            var set = ByteSet()
            while true {
                guard let byte = peek else { return nil }
                if byte == UInt8(ascii: "]") {
                    position += 1
                    break
                }
                // ICU reads `[` inside a class as a nested set, and `&&` and `--` as set operations.
                if byte == UInt8(ascii: "[") { return nil }
                if position + 1 < bytes.count, byte == bytes[position + 1],
                    byte == UInt8(ascii: "&") || byte == UInt8(ascii: "-")
                {
                    return nil
                }
                // A `-` right after a range (`[a-z-0]`) is read differently by the two: left to ICU.
                if afterRange && byte == UInt8(ascii: "-") { return nil }
                guard let first = classMember() else { return nil }
                if peek == UInt8(ascii: "-"), position + 1 < bytes.count, bytes[position + 1] != UInt8(ascii: "]") {
                    position += 1
                    guard let last = classMember(), let low = first.single, let high = last.single, low <= high else {
                        return nil
                    }
                    set.insert(low...high)
                    afterRange = true
                } else {
                    set.formUnion(first.set)
                    afterRange = false
                }
            }
            return negated ? set.inverted : set
        }

        /// One member of a class: an escape or a byte; `single` is the byte when it is one (a range's end).
        private mutating func classMember() -> (set: ByteSet, single: UInt8?)? {
            guard let byte = peek else { return nil }
            position += 1
            guard byte == UInt8(ascii: "\\") else { return (ByteSet(byte...byte), byte) }
            let start = position
            guard let set = escape(inClass: true) else { return nil }
            let escaped = bytes[start]
            let isClassEscape = "dDwWsS".utf8.contains(escaped)
            if isClassEscape { return (set, nil) }
            let single = set.low != 0 ? UInt8(set.low.trailingZeroBitCount) : UInt8(64 + set.high.trailingZeroBitCount)
            return (set, single)
        }
    }
}

// MARK: - Compiling

extension ASCIIPattern {
    /// Builds the states of a parsed pattern, back to front: each node is compiled knowing the state after it.
    struct Builder {
        /// The states built so far.
        var states: [State] = []

        /// Adds `state`, returning its index.
        mutating func add(_ state: State) -> Int {
            states.append(state)
            return states.count - 1
        }

        /// The entry state of `node` followed by `next`; nil when the program grows past
        /// ``ASCIIPattern/maximumStates``.
        mutating func compile(_ node: Node, next: Int) -> Int? {
            guard states.count <= ASCIIPattern.maximumStates else { return nil }
            switch node {
            case .empty:
                return next
            case .set(let set):
                return add(.byte(set, next: next))
            case .start:
                return add(.atStart(next: next))
            case .end:
                return add(.atEnd(next: next))
            case .sequence(let items):
                var entry = next
                for item in items.reversed() {
                    guard let compiled = compile(item, next: entry) else { return nil }
                    entry = compiled
                }
                return entry
            case .alternation(let branches):
                var entries: [Int] = []
                for branch in branches {
                    guard let compiled = compile(branch, next: next) else { return nil }
                    entries.append(compiled)
                }
                var entry = entries[entries.count - 1]
                for other in entries.dropLast().reversed() { entry = add(.split(other, entry)) }
                return entry
            case .repetition(let inner, let minimum, let maximum):
                var entry = next
                if let maximum {
                    // Optional copies, innermost last: (x(x(x)?)?)?
                    for _ in 0..<(maximum - minimum) {
                        guard let body = compile(inner, next: entry) else { return nil }
                        entry = add(.split(body, next))
                        if states.count > ASCIIPattern.maximumStates { return nil }
                    }
                } else {
                    // A loop: the split either enters the body (which jumps back) or leaves.
                    let loop = add(.jump(0))
                    guard let body = compile(inner, next: loop) else { return nil }
                    states[loop] = .split(body, next)
                    entry = loop
                }
                for _ in 0..<minimum {
                    guard let body = compile(inner, next: entry) else { return nil }
                    entry = body
                }
                return entry
            }
        }
    }
}

/// Strings that match a schema's `pattern`, for the generator: a subset of the regular expressions JSON Schema
/// allows is read into a tree once (``init(_:)``), and each ``sample(_:)`` walks it with the run's seeded random.
///
/// The subset: literal characters and escapes (`\.`, `\n`, `\t`, `\u0041`, `\x41`), the classes `\d \w \s` and their
/// negations, `.`, bracket classes (`[a-z0-9_]`, `[^,]`, with ranges and the same escapes), groups (`( )`, `(?: )`,
/// `(?<name> )`), alternation `|`, the quantifiers `* + ? {n} {n,} {n,m}` (lazy and possessive forms too; unbounded
/// ones make at most ``openRepeats`` more), and the anchors `^ $` (and `\A \z \Z`) at the ends of the pattern or of
/// an alternative. A pattern outside it (back-references, look-around, `\b`, `\p{...}`, inline flags) makes no
/// sampler: the generator falls back to the schema's examples, and the summary names the pattern once.
///
/// A pattern without `^` matches anywhere in the string (JSON Schema's `pattern` searches): a sample is a whole
/// match, which contains one.
package struct PatternSampler: Sendable {
    /// A node of the pattern.
    indirect enum Node: Sendable {
        /// One character of the set: ranges of scalar values, or their complement within printable ASCII.
        case characters(ranges: [ClosedRange<UInt32>], negated: Bool)
        /// The parts one after another.
        case sequence([Node])
        /// One of the alternatives.
        case alternation([Node])
        /// `node` between `low` and `high` times (nil: unbounded).
        case repeated(Node, low: Int, high: Int?)
    }

    /// The most repeats an unbounded quantifier adds to its minimum.
    static let openRepeats = 4
    /// The most repeats a bounded quantifier makes.
    static let repeatLimit = 64

    /// The tree.
    let root: Node

    /// The sampler of `pattern`; nil when it uses a construct outside the subset.
    package init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let node = parser.parseAlternation(depth: 0), parser.position == parser.scalars.count else {
            return nil
        }
        root = node
    }

    /// A string the pattern matches.
    package func sample(_ random: inout FuzzRandom) -> String {
        var scalars = String.UnicodeScalarView()
        Self.emit(root, into: &scalars, &random, budget: 4096)
        return String(scalars)
    }

    /// A string the pattern matches, of `minLength` to `maxLength` characters when one of `attempts` samples is.
    package func sample(
        _ random: inout FuzzRandom, minLength: Int?, maxLength: Int?, attempts: Int = 64
    ) -> String? {
        for _ in 0..<attempts {
            let text = sample(&random)
            if let minLength, text.count < minLength { continue }
            if let maxLength, text.count > maxLength { continue }
            return text
        }
        return nil
    }

    private static func emit(
        _ node: Node, into scalars: inout String.UnicodeScalarView, _ random: inout FuzzRandom, budget: Int
    ) {
        guard scalars.count < budget else { return }
        switch node {
        case .characters(let ranges, let negated):
            if let scalar = character(ranges, negated: negated, &random) { scalars.append(scalar) }
        case .sequence(let parts):
            for part in parts { emit(part, into: &scalars, &random, budget: budget) }
        case .alternation(let choices):
            emit(random.pick(choices), into: &scalars, &random, budget: budget)
        case .repeated(let inner, let low, let high):
            let top = min(high ?? (low + openRepeats), max(low, repeatLimit))
            let count = Int(random.integer(in: Int64(low)...Int64(max(low, top))))
            for _ in 0..<count { emit(inner, into: &scalars, &random, budget: budget) }
        }
    }

    /// A character of the set, mostly printable ASCII when the set has some.
    private static func character(
        _ ranges: [ClosedRange<UInt32>], negated: Bool, _ random: inout FuzzRandom
    ) -> Unicode.Scalar? {
        if negated {
            let allowed = (0x20...0x7E).filter { value in !ranges.contains { $0.contains(UInt32(value)) } }
            guard !allowed.isEmpty else { return nil }
            return Unicode.Scalar(UInt32(random.pick(allowed)))
        }
        let printable = ranges.compactMap { range -> ClosedRange<UInt32>? in
            let low = max(range.lowerBound, 0x20)
            let high = min(range.upperBound, 0x7E)
            return low <= high ? low...high : nil
        }
        let pool = printable.isEmpty ? ranges : printable
        guard !pool.isEmpty else { return nil }
        for _ in 0..<8 {
            let range = random.pick(pool)
            let value = UInt32(
                random.integer(in: Int64(range.lowerBound)...Int64(min(range.upperBound, range.lowerBound + 0xFFFF))))
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
        return nil
    }
}

// MARK: - Parsing

extension PatternSampler {
    /// A recursive-descent reader of the subset; each function returns nil for what it does not support.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        /// The deepest nesting of groups read.
        static let maximumDepth = 32

        var atEnd: Bool { position >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[position] }

        mutating func parseAlternation(depth: Int) -> Node? {
            guard depth < Self.maximumDepth else { return nil }
            var choices: [Node] = []
            guard let first = parseSequence(depth: depth) else { return nil }
            choices.append(first)
            while current == "|" {
                position += 1
                guard let next = parseSequence(depth: depth) else { return nil }
                choices.append(next)
            }
            return choices.count == 1 ? choices[0] : .alternation(choices)
        }

        mutating func parseSequence(depth: Int) -> Node? {
            var parts: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                // Anchors are allowed only where they mean the start or the end of the whole string.
                if scalar == "^" {
                    guard parts.isEmpty else { return nil }
                    position += 1
                    continue
                }
                if scalar == "\\", position + 1 < scalars.count, scalars[position + 1] == "A" {
                    guard parts.isEmpty else { return nil }
                    position += 2
                    continue
                }
                let endAnchor =
                    scalar == "$"
                    || (scalar == "\\" && position + 1 < scalars.count
                        && (scalars[position + 1] == "z" || scalars[position + 1] == "Z"))
                if endAnchor {
                    position += scalar == "$" ? 1 : 2
                    guard current == nil || current == "|" || current == ")" else { return nil }
                    continue
                }
                guard let atom = parseAtom(depth: depth) else { return nil }
                guard let quantified = parseQuantifier(atom) else { return nil }
                parts.append(quantified)
            }
            return parts.count == 1 ? parts[0] : .sequence(parts)
        }

        mutating func parseAtom(depth: Int) -> Node? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "(":
                if current == "?" {
                    position += 1
                    if current == ":" {
                        position += 1
                    } else if current == "<", position + 1 < scalars.count, scalars[position + 1] != "=",
                        scalars[position + 1] != "!"
                    {
                        // A named group: skip the name.
                        while let next = current, next != ">" { position += 1 }
                        guard current == ">" else { return nil }
                        position += 1
                    } else {
                        return nil // look-around, inline flags, atomic groups
                    }
                }
                guard let inner = parseAlternation(depth: depth + 1), current == ")" else { return nil }
                position += 1
                return inner
            case "[": return parseClass()
            case ".": return .characters(ranges: [0x0A...0x0A], negated: true)
            case "\\":
                guard let escaped = parseEscape(inClass: false) else { return nil }
                return escaped
            case "*", "+", "?", "{", ")", "|":
                // `{` as a literal is accepted by some engines, not by every one: refused.
                return nil
            default:
                return .characters(ranges: [scalar.value...scalar.value], negated: false)
            }
        }

        /// The quantifier after `atom`, if any.
        mutating func parseQuantifier(_ atom: Node) -> Node? {
            var low = 1
            var high: Int? = 1
            switch current {
            case "*":
                (low, high) = (0, nil)
                position += 1
            case "+":
                (low, high) = (1, nil)
                position += 1
            case "?":
                (low, high) = (0, 1)
                position += 1
            case "{":
                position += 1
                guard let first = parseNumber() else { return nil }
                low = first
                high = first
                if current == "," {
                    position += 1
                    high = current == "}" ? nil : parseNumber()
                    if high == nil, current != "}" { return nil }
                }
                guard current == "}", high.map({ $0 >= low }) ?? true, low <= PatternSampler.repeatLimit else {
                    return nil
                }
                position += 1
            default:
                return atom
            }
            // Lazy and possessive forms generate the same strings.
            if current == "?" || current == "+" { position += 1 }
            // A quantifier on a quantifier (`a**`) is refused.
            if let next = current, next == "*" || next == "+" || next == "?" || next == "{" { return nil }
            return .repeated(atom, low: low, high: high.map { min($0, max(low, PatternSampler.repeatLimit)) })
        }

        mutating func parseNumber() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = current, let digit = Int(String(scalar)), scalar.isASCII {
                value = value * 10 + digit
                digits += 1
                position += 1
                if value > 100_000 { return nil }
            }
            return digits == 0 ? nil : value
        }

        /// A bracket class, after its `[`.
        mutating func parseClass() -> Node? {
            var negated = false
            if current == "^" {
                negated = true
                position += 1
            }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while let scalar = current, scalar != "]" || first {
                first = false
                position += 1
                var low: UInt32
                if scalar == "\\" {
                    guard let escaped = parseEscape(inClass: true) else { return nil }
                    guard case .characters(let set, let negatedSet) = escaped, !negatedSet else { return nil }
                    if set.count != 1 || set[0].lowerBound != set[0].upperBound {
                        ranges += set
                        continue
                    }
                    low = set[0].lowerBound
                } else if scalar == "[" {
                    return nil // POSIX classes and nested sets
                } else {
                    low = scalar.value
                }
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let end = current else { return nil }
                    position += 1
                    var high = end.value
                    if end == "\\" {
                        guard case .characters(let set, false) = parseEscape(inClass: true), set.count == 1,
                            set[0].lowerBound == set[0].upperBound
                        else { return nil }
                        high = set[0].lowerBound
                    }
                    guard low <= high else { return nil }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard current == "]" else { return nil }
            position += 1
            return .characters(ranges: ranges, negated: negated)
        }

        /// An escape, after its `\`.
        mutating func parseEscape(inClass: Bool) -> Node? {
            guard let scalar = current else { return nil }
            position += 1
            let digits: [ClosedRange<UInt32>] = [0x30...0x39]
            let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
            let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]
            func literal(_ value: UInt32) -> Node { .characters(ranges: [value...value], negated: false) }
            switch scalar {
            case "d": return .characters(ranges: digits, negated: false)
            case "D": return inClass ? nil : .characters(ranges: digits, negated: true)
            case "w": return .characters(ranges: word, negated: false)
            case "W": return inClass ? nil : .characters(ranges: word, negated: true)
            case "s": return .characters(ranges: space, negated: false)
            case "S": return inClass ? nil : .characters(ranges: space, negated: true)
            case "n": return literal(0x0A)
            case "t": return literal(0x09)
            case "r": return literal(0x0D)
            case "f": return literal(0x0C)
            case "v": return literal(0x0B)
            case "u", "x":
                let count = scalar == "u" ? 4 : 2
                guard position + count <= scalars.count else { return nil }
                let hex = String(String.UnicodeScalarView(scalars[position..<(position + count)]))
                guard let value = UInt32(hex, radix: 16), Unicode.Scalar(value) != nil else { return nil }
                position += count
                return literal(value)
            default:
                // Any other escaped punctuation is itself; letters and digits are constructs outside the subset
                // (`\b`, `\p`, back-references).
                guard !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) else { return nil }
                return literal(scalar.value)
            }
        }
    }
}

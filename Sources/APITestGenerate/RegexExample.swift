/// The shortest strings that simple regular expressions (JSON Schema `pattern`, ECMA-262 syntax) match: literals,
/// escapes (`\d`, `\w`, `\s`, `\.`, `\x41`, `\u0041`), classes and ranges (`[a-z0-9_]`, `[^,]`), `.`, groups
/// with alternation (the first branch is taken), quantifiers (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not)
/// and anchors. Lookarounds, backreferences and Unicode property escapes are beyond it: no string is made for them.
///
/// ```swift
/// RegexExample.match("^[A-Z]{2}-\\d{4}$", minimumLength: 0, maximumLength: .max)   // "AA-0000"
/// ```
enum RegexExample {
    /// A piece of a parsed pattern.
    private indirect enum Node {
        /// Text that must appear (anchors and assertions are empty).
        case text(String)
        /// One of several branches (the first is taken).
        case alternatives([[Node]])
        /// A node repeated between `minimum` and `maximum` (nil: unbounded) times.
        case repeated(Node, minimum: Int, maximum: Int?)
    }

    /// A string `pattern` matches whose length is within the bounds when repeating its quantified parts more (up
    /// to the minimum length) gets there; nil when the pattern is beyond this synthesizer or no such string is found.
    static func match(_ pattern: String, minimumLength: Int, maximumLength: Int) -> String? {
        var parser = Parser(Array(pattern.unicodeScalars))
        guard let nodes = parser.parseAlternation(), parser.isAtEnd else { return nil }
        for extra in 0...min(max(minimumLength, 0), 64) {
            let text = render(nodes, extra: extra)
            let length = text.count
            if length >= minimumLength && length <= maximumLength { return text }
            if length > maximumLength { return nil }
        }
        return nil
    }

    private static func render(_ nodes: [Node], extra: Int) -> String {
        nodes.map { render($0, extra: extra) }.joined()
    }

    private static func render(_ node: Node, extra: Int) -> String {
        switch node {
        case .text(let text):
            return text
        case .alternatives(let branches):
            return branches.first.map { render($0, extra: extra) } ?? ""
        case .repeated(let inner, let minimum, let maximum):
            let count = min(maximum ?? Int.max, minimum + extra)
            return String(repeating: render(inner, extra: extra), count: max(count, 0))
        }
    }

    // MARK: - Parsing

    /// A recursive-descent parser over the pattern's scalars.
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var isAtEnd: Bool { position >= scalars.count }

        private var current: Unicode.Scalar? { isAtEnd ? nil : scalars[position] }

        private mutating func take() -> Unicode.Scalar? {
            defer { position += 1 }
            return current
        }

        /// `branch (| branch)*` as one node list.
        mutating func parseAlternation() -> [Node]? {
            var branches: [[Node]] = []
            repeat {
                if !branches.isEmpty { position += 1 }
                guard let branch = parseSequence() else { return nil }
                branches.append(branch)
            } while current == "|"
            return branches.count == 1 ? branches[0] : [.alternatives(branches)]
        }

        private mutating func parseSequence() -> [Node]? {
            var nodes: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                guard let atom = parseAtom() else { return nil }
                guard let quantified = parseQuantifier(atom) else { return nil }
                nodes.append(quantified)
            }
            return nodes
        }

        private mutating func parseAtom() -> Node? {
            guard let scalar = take() else { return nil }
            switch scalar {
            case "^", "$": return .text("")
            case ".": return .text("a")
            case "(":
                if current == "?" {
                    position += 1
                    switch take() {
                    case ":": break
                    case "<" where current != "=" && current != "!":
                        while let next = take(), next != ">" {}
                    default: return nil
                    }
                }
                guard let inner = parseAlternation(), take() == ")" else { return nil }
                return .alternatives([inner])
            case "[": return parseClass()
            case "\\": return parseEscape(inClass: false).map { .text(String($0)) }
            case "*", "+", "?", "{", ")", "|": return scalar == "{" && !looksLikeQuantifier() ? .text("{") : nil
            default: return .text(String(scalar))
            }
        }

        /// Whether the text after a `{` just read is a quantifier's `n}`, `n,}` or `n,m}`.
        private func looksLikeQuantifier() -> Bool {
            var index = position
            guard index < scalars.count, ("0"..."9").contains(scalars[index]) else { return false }
            while index < scalars.count, ("0"..."9").contains(scalars[index]) || scalars[index] == "," {
                index += 1
            }
            return index < scalars.count && scalars[index] == "}"
        }

        private mutating func parseQuantifier(_ atom: Node) -> Node? {
            var minimum: Int
            var maximum: Int?
            switch current {
            case "*": (minimum, maximum) = (0, nil)
            case "+": (minimum, maximum) = (1, nil)
            case "?": (minimum, maximum) = (0, 1)
            case "{" where lookingAtBraceQuantifier():
                position += 1
                guard let low = readNumber() else { return nil }
                minimum = low
                maximum = low
                if current == "," {
                    position += 1
                    maximum = readNumber()
                }
                guard current == "}" else { return nil }
            default:
                return atom
            }
            position += 1
            if current == "?" { position += 1 }
            guard minimum <= 1024, maximum.map({ $0 >= minimum }) ?? true else { return nil }
            return .repeated(atom, minimum: minimum, maximum: maximum)
        }

        private func lookingAtBraceQuantifier() -> Bool {
            var copy = self
            copy.position += 1
            return copy.looksLikeQuantifier()
        }

        private mutating func readNumber() -> Int? {
            var digits = ""
            while let scalar = current, ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
                position += 1
            }
            return digits.count <= 6 ? Int(digits) : nil
        }

        /// A class: its first member, or for `[^...]` the first of a few common characters it does not exclude.
        private mutating func parseClass() -> Node? {
            let negated = current == "^"
            if negated { position += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            var closed = false
            while let scalar = take() {
                if scalar == "]" && !first {
                    closed = true
                    break
                }
                first = false
                var low = scalar
                if scalar == "\\" {
                    if let set = classEscapeSet() {
                        ranges += set
                        continue
                    }
                    guard let escaped = parseEscape(inClass: true) else { return nil }
                    low = escaped
                }
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard var high = take() else { return nil }
                    if high == "\\" {
                        guard let escaped = parseEscape(inClass: true) else { return nil }
                        high = escaped
                    }
                    guard low.value <= high.value else { return nil }
                    ranges.append(low.value...high.value)
                } else {
                    ranges.append(low.value...low.value)
                }
            }
            guard closed else { return nil }
            if negated {
                let choices: [Unicode.Scalar] = ["a", "A", "0", "_", "-", "x", "Z", "9", " "]
                return choices.first { choice in !ranges.contains { $0.contains(choice.value) } }.map {
                    .text(String($0))
                }
            }
            guard let range = ranges.first, let scalar = Unicode.Scalar(range.lowerBound) else { return nil }
            return .text(String(scalar))
        }

        /// The ranges of a class escape (`\d`, `\w`, `\s` and their negations) just after its backslash; nil for
        /// other escapes (the position is left as it was).
        private mutating func classEscapeSet() -> [ClosedRange<UInt32>]? {
            let sets: [Unicode.Scalar: [ClosedRange<UInt32>]] = [
                "d": [48...57], "w": [48...57, 65...90, 95...95, 97...122], "s": [32...32, 9...13],
                "D": [97...97], "W": [45...45], "S": [97...97],
            ]
            guard let scalar = current, let set = sets[scalar] else { return nil }
            position += 1
            return set
        }

        /// The character an escape stands for (after its backslash); nil for what this synthesizer does not do
        /// (backreferences, Unicode properties, `\c`).
        private mutating func parseEscape(inClass: Bool) -> Unicode.Scalar? {
            guard let scalar = take() else { return nil }
            switch scalar {
            case "d": return "0"
            case "w", "D", "S": return "a"
            case "s": return " "
            case "W": return "-"
            case "n": return "\n"
            case "r": return "\r"
            case "t": return "\t"
            case "f": return "\u{0C}"
            case "v": return "\u{0B}"
            case "0": return "\0"
            case "b" where inClass: return "\u{08}"
            case "x": return hexScalar(digits: 2)
            case "u":
                if current == "{" {
                    position += 1
                    var digits = ""
                    while let next = take(), next != "}" { digits.unicodeScalars.append(next) }
                    return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init)
                }
                return hexScalar(digits: 4)
            case "1"..."9", "p", "P", "c", "k", "b", "B":
                return nil
            default:
                return scalar
            }
        }

        private mutating func hexScalar(digits count: Int) -> Unicode.Scalar? {
            guard position + count <= scalars.count else { return nil }
            var digits = ""
            for scalar in scalars[position..<(position + count)] { digits.unicodeScalars.append(scalar) }
            position += count
            return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init)
        }
    }
}

// MARK: - Syntax tree

extension LinearRegex {
    /// A parsed pattern.
    indirect enum Node: Sendable {
        case empty
        case consume(ScalarSet)
        case assert(Assertion)
        case capture(Int, Node)
        case concat([Node])
        case alternate([Node])
        case repeated(Node, min: Int, max: Int?, greedy: Bool)
    }

    // MARK: - Parser

    /// Reads a pattern into a ``Node``; every problem is a ``SyntaxError`` at its offset.
    struct Parser {
        private let scalars: [Unicode.Scalar]
        private var position = 0
        private var flags: Flags
        private var depth = 0
        /// Capture groups seen so far.
        private(set) var captureCount = 0
        /// Named groups' numbers.
        private(set) var groupNames: [String: Int] = [:]

        /// The deepest group nesting a pattern may have.
        static let maximumDepth = 250
        /// The largest count of a `{n,m}` repetition.
        static let maximumCount = 1000

        init(_ pattern: String, flags: Flags) {
            scalars = Array(pattern.unicodeScalars)
            self.flags = flags
        }

        private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private func failure(_ kind: SyntaxError.Kind, at offset: Int? = nil) -> SyntaxError {
            SyntaxError(kind: kind, offset: min(offset ?? position, max(scalars.count - 1, 0)))
        }

        mutating func parse() throws(SyntaxError) -> Node {
            let node = try alternation()
            if position < scalars.count { throw failure(.unmatchedParenthesis) }
            return node
        }

        private mutating func alternation() throws(SyntaxError) -> Node {
            var branches = [try sequence()]
            while peek == "|" {
                position += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .alternate(branches)
        }

        private mutating func sequence() throws(SyntaxError) -> Node {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                if scalar == "\\", position + 1 < scalars.count, scalars[position + 1] == "Q" {
                    // `\Q...\E`: literals, a quantifier after it repeating only the last one (as ICU does).
                    var literals = quoted()
                    guard let last = literals.popLast() else { continue }
                    items += literals
                    items.append(try quantified(last))
                    continue
                }
                guard let atom = try atom() else {
                    if let newFlags = flagsAfterGroup {
                        flags = newFlags
                        flagsAfterGroup = nil
                    }
                    continue
                }
                items.append(try quantified(atom))
            }
            switch items.count {
            case 0: return .empty
            case 1: return items[0]
            default: return .concat(items)
            }
        }

        // MARK: Atoms

        /// The next atom, or nil for what matches nothing by itself (`(?i)`, `(?#...)`, an empty `\Q\E`).
        private mutating func atom() throws(SyntaxError) -> Node? {
            let start = position
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "(": return try group(at: start)
            case "[": return .consume(try characterClass(at: start))
            case ".": return .consume(.dot(matchesLineTerminators: flags.contains(.dotMatchesLineTerminators)))
            case "^": return .assert(flags.contains(.multiline) ? .startOfLine : .startOfText)
            case "$": return .assert(flags.contains(.multiline) ? .endOfLine : .endOfTextOrFinalTerminator)
            case "\\": return try escape(at: start)
            case "*", "+", "?", "{": throw failure(.nothingToRepeat, at: start)
            default: return literal(scalar)
            }
        }

        private func literal(_ scalar: Unicode.Scalar) -> Node {
            .consume(.scalar(scalar, caseInsensitive: flags.contains(.caseInsensitive)))
        }

        private mutating func group(at start: Int) throws(SyntaxError) -> Node? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw failure(.tooLarge, at: start) }
            let saved = flags
            defer { flags = saved }
            var capture: Int?
            if peek == "?" {
                position += 1
                switch peek {
                case ":":
                    position += 1
                case "=", "!":
                    throw failure(.unsupported("a look-ahead '(?\(peek!)'"), at: start)
                case ">":
                    throw failure(.unsupported("an atomic group '(?>'"), at: start)
                case "#":
                    while let next = peek, next != ")" { position += 1 }
                    guard peek == ")" else { throw failure(.unclosedGroup, at: start) }
                    position += 1
                    return nil
                case "<":
                    position += 1
                    if peek == "=" || peek == "!" {
                        throw failure(.unsupported("a look-behind '(?<\(peek!)'"), at: start)
                    }
                    var name = ""
                    while let next = peek, next.isASCII, next.properties.isAlphabetic || ("0"..."9").contains(next) {
                        name.unicodeScalars.append(next)
                        position += 1
                    }
                    guard peek == ">", let first = name.unicodeScalars.first, first.properties.isAlphabetic,
                        groupNames[name] == nil
                    else { throw failure(.badGroup, at: start) }
                    position += 1
                    captureCount += 1
                    capture = captureCount
                    groupNames[name] = captureCount
                default:
                    // Flags: `(?ism-ism)` for the rest of the enclosing group, `(?ism-ism:...)` for this one.
                    var on = true
                    var newFlags = flags
                    while let next = peek, next != ")", next != ":" {
                        let flag: Flags
                        switch next {
                        case "i": flag = .caseInsensitive
                        case "s": flag = .dotMatchesLineTerminators
                        case "m": flag = .multiline
                        case "-" where on:
                            on = false
                            position += 1
                            continue
                        default: throw failure(.badGroup, at: position)
                        }
                        if on { newFlags.insert(flag) } else { newFlags.remove(flag) }
                        position += 1
                    }
                    guard let end = peek else { throw failure(.unclosedGroup, at: start) }
                    position += 1
                    if end == ")" {
                        // Applies after the group: the caller's `defer` would undo it, so set it on return.
                        flagsAfterGroup = newFlags
                        return nil
                    }
                    flags = newFlags
                }
            } else {
                captureCount += 1
                capture = captureCount
            }
            let body = try alternation()
            guard peek == ")" else { throw failure(.unclosedGroup, at: start) }
            position += 1
            if let capture { return .capture(capture, body) }
            return body
        }

        /// Flags set by a `(?i)` group, applied by ``atom()``'s caller once the group's own scope is left.
        private var flagsAfterGroup: Flags?

        // MARK: Quantifiers

        private mutating func quantified(_ atom: Node) throws(SyntaxError) -> Node {
            var node = atom
            while let scalar = peek, "*+?{".unicodeScalars.contains(scalar) {
                let quantifierStart = position
                position += 1
                var low = 0
                var high: Int?
                switch scalar {
                case "*": break
                case "+": low = 1
                case "?": high = 1
                default:
                    guard let count = decimal() else { throw failure(.badRepetition, at: quantifierStart) }
                    low = count
                    high = count
                    if peek == "," {
                        position += 1
                        high = decimal()
                    }
                    guard peek == "}", low <= Self.maximumCount, (high ?? low) <= Self.maximumCount,
                        (high ?? low) >= low
                    else { throw failure(.badRepetition, at: quantifierStart) }
                    position += 1
                }
                var greedy = true
                if peek == "?" {
                    position += 1
                    greedy = false
                } else if peek == "+" {
                    throw failure(.unsupported("a possessive quantifier"), at: quantifierStart)
                }
                // `a**` and `a{2}{3}` repeat the repetition, as ICU does.
                node = .repeated(node, min: low, max: high, greedy: greedy)
            }
            return node
        }

        /// Decimal digits, clamped just above ``maximumCount``; nil without a digit.
        private mutating func decimal() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = peek, ("0"..."9").contains(scalar) {
                value = min(value * 10 + Int(scalar.value - 0x30), Self.maximumCount + 1)
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }

        // MARK: Escapes

        /// At `\Q`: the literals up to `\E` or the end.
        private mutating func quoted() -> [Node] {
            position += 2
            var items: [Node] = []
            while position < scalars.count {
                if scalars[position] == "\\", position + 1 < scalars.count, scalars[position + 1] == "E" {
                    position += 2
                    break
                }
                items.append(literal(scalars[position]))
                position += 1
            }
            return items
        }

        /// After a `\` outside a class.
        private mutating func escape(at start: Int) throws(SyntaxError) -> Node? {
            guard let scalar = peek else { throw failure(.badEscape("\\"), at: start) }
            switch scalar {
            case "b", "B", "A", "z", "Z":
                position += 1
                let assertions: [Unicode.Scalar: Assertion] = [
                    "b": .wordBoundary, "B": .notWordBoundary, "A": .startOfText, "z": .endOfText,
                    "Z": .endOfTextOrFinalTerminator,
                ]
                return .assert(assertions[scalar]!)
            case "1"..."9":
                throw failure(.unsupported("a back-reference '\\\(scalar)'"), at: start)
            case "k":
                throw failure(.unsupported("a back-reference '\\k'"), at: start)
            default:
                return .consume(try escapedSet(at: start))
            }
        }

        /// After a `\`, inside a class or outside: a class escape or one scalar.
        private mutating func escapedSet(at start: Int) throws(SyntaxError) -> ScalarSet {
            guard let scalar = peek else { throw failure(.badEscape("\\"), at: start) }
            position += 1
            let caseInsensitive = flags.contains(.caseInsensitive)
            switch scalar {
            case "d": return .of(.digit)
            case "D": return .of(.digit, negated: true)
            case "w": return .of(.word)
            case "W": return .of(.word, negated: true)
            case "s": return .of(.space)
            case "S": return .of(.space, negated: true)
            case "p", "P":
                var name = ""
                if peek == "{" {
                    position += 1
                    while let next = peek, next != "}" {
                        name.unicodeScalars.append(next)
                        position += 1
                    }
                    guard peek == "}" else { throw failure(.badEscape("\\\(scalar){\(name)"), at: start) }
                    position += 1
                } else if let next = peek {
                    name.unicodeScalars.append(next)
                    position += 1
                }
                guard let categories = LinearRegex.categories(named: name) else {
                    throw failure(.badEscape("\\\(scalar){\(name)}"), at: start)
                }
                var set = ScalarSet.of(.categories(categories), negated: scalar == "P")
                set.caseInsensitive = caseInsensitive
                return set
            default:
                return .scalar(try escapedScalar(scalar, at: start), caseInsensitive: caseInsensitive)
            }
        }

        /// The scalar an escape other than a class stands for (`\n`, `\x41`, `\u00e9`, `\.`).
        private mutating func escapedScalar(
            _ scalar: Unicode.Scalar, at start: Int
        ) throws(SyntaxError)
            -> Unicode.Scalar
        {
            switch scalar {
            case "t": return "\t"
            case "n": return "\n"
            case "r": return "\r"
            case "f": return "\u{0C}"
            case "a": return "\u{07}"
            case "e": return "\u{1B}"
            case "x":
                if peek == "{" {
                    position += 1
                    let value = hexDigits(maximum: 6)
                    guard peek == "}", let value, let result = Unicode.Scalar(value) else {
                        throw failure(.badEscape("\\x{"), at: start)
                    }
                    position += 1
                    return result
                }
                return try fixedHex(2, escape: "\\x", at: start)
            case "u": return try fixedHex(4, escape: "\\u", at: start)
            case "U": return try fixedHex(8, escape: "\\U", at: start)
            case "0":
                var value: UInt32 = 0
                var digits = 0
                while digits < 3, let next = peek, ("0"..."7").contains(next) {
                    value = value * 8 + next.value - 0x30
                    digits += 1
                    position += 1
                }
                return Unicode.Scalar(value)!
            default:
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    throw failure(.badEscape("\\\(scalar)"), at: start)
                }
                return scalar
            }
        }

        private mutating func fixedHex(
            _ count: Int, escape: String, at start: Int
        ) throws(SyntaxError)
            -> Unicode.Scalar
        {
            let begin = position
            guard let value = hexDigits(maximum: count), position - begin == count, let scalar = Unicode.Scalar(value)
            else { throw failure(.badEscape(escape), at: start) }
            return scalar
        }

        private mutating func hexDigits(maximum: Int) -> UInt32? {
            var value: UInt32 = 0
            var digits = 0
            while digits < maximum, let next = peek, let digit = Self.hexValue(next) {
                value = value * 16 + digit
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }

        private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar {
            case "0"..."9": return scalar.value - 0x30
            case "a"..."f": return scalar.value - 0x61 + 10
            case "A"..."F": return scalar.value - 0x41 + 10
            default: return nil
            }
        }

        // MARK: Classes

        /// After a `[`.
        private mutating func characterClass(at start: Int) throws(SyntaxError) -> ScalarSet {
            var set = ScalarSet()
            set.caseInsensitive = flags.contains(.caseInsensitive)
            if peek == "^" {
                position += 1
                set.negated = true
            }
            var first = true
            while true {
                guard let scalar = peek else { throw failure(.unclosedClass, at: start) }
                if scalar == "]" && !first {
                    position += 1
                    return set
                }
                first = false
                let itemStart = position
                if scalar == "[" {
                    throw failure(.unsupported("a nested class or a set operation '['"), at: itemStart)
                }
                if scalar == "&", position + 1 < scalars.count, scalars[position + 1] == "&" {
                    throw failure(.unsupported("a set operation '&&'"), at: itemStart)
                }
                let low: Unicode.Scalar
                if scalar == "\\" {
                    position += 1
                    guard let next = peek else { throw failure(.unclosedClass, at: start) }
                    if "dDwWsSpP".unicodeScalars.contains(next) {
                        let escaped = try escapedSet(at: itemStart)
                        set.ranges += escaped.ranges
                        for item in escaped.classes { set.classes.append(item) }
                        continue
                    }
                    if next == "b" || next == "Q" { throw failure(.badEscape("\\\(next)"), at: itemStart) }
                    position += 1
                    low = try escapedScalar(next, at: itemStart)
                } else {
                    position += 1
                    low = scalar
                }
                // A range `a-z`; a `-` first, last or after a range is literal.
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    let highStart = position
                    guard let highScalar = peek else { throw failure(.unclosedClass, at: start) }
                    let high: Unicode.Scalar
                    if highScalar == "\\" {
                        position += 1
                        guard let next = peek else { throw failure(.unclosedClass, at: start) }
                        guard !"dDwWsSpPbQ".unicodeScalars.contains(next) else {
                            throw failure(.badRange, at: highStart)
                        }
                        position += 1
                        high = try escapedScalar(next, at: highStart)
                    } else if highScalar == "[" {
                        throw failure(.unsupported("a nested class or a set operation '['"), at: highStart)
                    } else {
                        position += 1
                        high = highScalar
                    }
                    guard low.value <= high.value else { throw failure(.badRange, at: itemStart) }
                    set.ranges.append(low.value...high.value)
                } else {
                    set.ranges.append(low.value...low.value)
                }
            }
        }
    }
}

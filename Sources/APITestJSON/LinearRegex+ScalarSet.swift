// MARK: - ScalarSet

extension LinearRegex {
    /// The scalars one step of the automaton consumes: a literal, `.`, a class or a class escape.
    struct ScalarSet: Sendable {
        /// Ranges of scalar values.
        var ranges: [ClosedRange<UInt32>] = []
        /// Classes (`\d`, `\p{L}`, ...), each possibly negated (`\D`).
        var classes: [(ScalarClass, negated: Bool)] = []
        /// `[^...]`: the complement.
        var negated = false
        /// `(?i)`: a scalar also matches when its lower- or upper-case form does.
        var caseInsensitive = false
        /// The answers for ASCII scalars (bit n of word n / 64), once ``finalized()`` has worked them out.
        private var ascii: (low: UInt64, high: UInt64)?

        /// The ASCII answers (``finalized()``), or none.
        var asciiMask: ASCIIMask { ascii.map { ASCIIMask(low: $0.low, high: $0.high) } ?? ASCIIMask(low: 0, high: 0) }

        /// The set with its ASCII answers worked out, so most scalars of most texts cost two instructions.
        func finalized() -> ScalarSet {
            var set = self
            set.ascii = nil
            var bits: (low: UInt64, high: UInt64) = (0, 0)
            for value in 0..<128 where set.contains(Unicode.Scalar(UInt8(value))) {
                if value < 64 { bits.low |= 1 << UInt64(value) } else { bits.high |= 1 << UInt64(value - 64) }
            }
            set.ascii = bits
            return set
        }

        /// One scalar.
        static func scalar(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> ScalarSet {
            ScalarSet(ranges: [scalar.value...scalar.value], caseInsensitive: caseInsensitive)
        }

        /// One class, possibly negated.
        static func of(_ scalarClass: ScalarClass, negated: Bool = false) -> ScalarSet {
            ScalarSet(classes: [(scalarClass, negated)])
        }

        /// `.`: anything but a line terminator, or anything at all with `(?s)`.
        static func dot(matchesLineTerminators: Bool) -> ScalarSet {
            matchesLineTerminators ? ScalarSet(negated: true) : .of(.lineTerminator, negated: true)
        }

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 128, let ascii {
                return (value < 64 ? ascii.low >> UInt64(value) : ascii.high >> UInt64(value - 64)) & 1 == 1
            }
            var found = holds(scalar)
            if !found && caseInsensitive {
                found = holds(LinearRegex.lower(scalar)) || holds(LinearRegex.upper(scalar))
            }
            return found != negated
        }

        private func holds(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            for range in ranges where range.contains(value) { return true }
            for (scalarClass, negated) in classes where scalarClass.contains(scalar) != negated { return true }
            return false
        }
    }

    /// Which ASCII scalars an instruction consumes, one bit each: the hot loops read this instead of the set.
    struct ASCIIMask: Sendable {
        let low: UInt64
        let high: UInt64

        /// Whether the ASCII scalar `value` (below 128) is consumed.
        @inline(__always) func contains(_ value: UInt32) -> Bool {
            (value < 64 ? low >> UInt64(value) : high >> UInt64(value - 64)) & 1 == 1
        }
    }

    /// Whether instruction `pc`, a `consume`, takes `scalar`: ASCII from its mask, the rest from its set.
    @inline(__always)
    static func consumes(_ program: [Instruction], _ masks: [ASCIIMask], _ pc: Int, _ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 { return masks[pc].contains(value) }
        guard case .consume(let set) = program[pc] else { return false }
        return set.contains(scalar)
    }

    /// A class of scalars named by an escape.
    enum ScalarClass: Sendable {
        /// `\d`: a decimal digit (`\p{Nd}`).
        case digit
        /// `\w`: a letter, a mark, a decimal digit, a connector (`_`), ZWNJ or ZWJ (ICU's definition).
        case word
        /// `\s`: white space (the Unicode White_Space property).
        case space
        /// What `.` does not match: LF, VT, FF, CR, NEL, LS and PS.
        case lineTerminator
        /// `\p{..}`: any of these general categories.
        case categories(Set<Unicode.GeneralCategory>)

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .digit: return scalar.properties.generalCategory == .decimalNumber
            case .word: return LinearRegex.isWord(scalar)
            case .space: return scalar.properties.isWhitespace
            case .lineTerminator: return LinearRegex.isLineTerminator(scalar)
            case .categories(let set): return set.contains(scalar.properties.generalCategory)
            }
        }
    }

    // MARK: - Character facts

    /// A word character for `\w` and `\b`.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == 0x5F
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return properties.isAlphabetic || scalar.value == 0x200C || scalar.value == 0x200D
        }
    }

    /// A line terminator (ICU's: LF, VT, FF, CR, NEL, LS, PS).
    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The scalar's lower-case form when it is one scalar, else the scalar.
    static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar
        }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first! : scalar
    }

    /// The scalar's upper-case form when it is one scalar, else the scalar.
    static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar
        }
        let mapping = scalar.properties.uppercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first! : scalar
    }

    /// The general categories a `\p{..}` name stands for (`L`, `Lu`, `Nd`, ...); nil for other names.
    static func categories(named name: String) -> Set<Unicode.GeneralCategory>? {
        let table: [String: [Unicode.GeneralCategory]] = [
            "Lu": [.uppercaseLetter], "Ll": [.lowercaseLetter], "Lt": [.titlecaseLetter], "Lm": [.modifierLetter],
            "Lo": [.otherLetter], "Mn": [.nonspacingMark], "Mc": [.spacingMark], "Me": [.enclosingMark],
            "Nd": [.decimalNumber], "Nl": [.letterNumber], "No": [.otherNumber], "Pc": [.connectorPunctuation],
            "Pd": [.dashPunctuation], "Ps": [.openPunctuation], "Pe": [.closePunctuation],
            "Pi": [.initialPunctuation], "Pf": [.finalPunctuation], "Po": [.otherPunctuation], "Sm": [.mathSymbol],
            "Sc": [.currencySymbol], "Sk": [.modifierSymbol], "So": [.otherSymbol], "Zs": [.spaceSeparator],
            "Zl": [.lineSeparator], "Zp": [.paragraphSeparator], "Cc": [.control], "Cf": [.format],
            "Cs": [.surrogate], "Co": [.privateUse], "Cn": [.unassigned],
        ]
        if let categories = table[name] { return Set(categories) }
        guard name.count == 1 else { return nil }
        let members = table.filter { $0.key.hasPrefix(name) }.flatMap(\.value)
        return members.isEmpty ? nil : Set(members)
    }
}

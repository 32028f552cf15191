// MARK: - ECMA-262 to LinearRegex

extension SchemaRegex {
    /// An ECMA-262 pattern rewritten in ``LinearRegex`` syntax, with the offset in the original pattern of each
    /// scalar written (so an error in the translation points at what the schema says).
    struct Translation {
        /// The pattern in ``LinearRegex`` syntax.
        private(set) var text = ""
        /// For each scalar of `text`, the offset (in scalars) of the construct it comes from.
        private(set) var origins: [Int] = []

        private let scalars: [Unicode.Scalar]
        private var position = 0

        /// ECMA-262 `\d`.
        static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
        /// ECMA-262 `\w`.
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        /// ECMA-262 `\s`: WhiteSpace (TAB, VT, FF, U+FEFF and category Zs) and LineTerminator (LF, CR, LS, PS).
        static let space: [ClosedRange<UInt32>] = [
            0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
            0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
        ]
        /// What ECMA-262 `.` does not match.
        static let lineTerminators: [ClosedRange<UInt32>] = [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]

        init(_ pattern: String) throws(PatternError) {
            scalars = Array(pattern.unicodeScalars)
            while position < scalars.count {
                let start = position
                let scalar = scalars[position]
                position += 1
                switch scalar {
                case "\\": try escape(at: start, inClass: false)
                case "[": try characterClass(at: start)
                case ".": emit("[^" + Self.rangeText(Self.lineTerminators) + "]", from: start)
                case "$": emit("\\z", from: start)
                default: emit(scalar, from: start)
                }
            }
        }

        // MARK: Writing

        private mutating func emit(_ piece: String, from origin: Int) {
            for scalar in piece.unicodeScalars {
                text.unicodeScalars.append(scalar)
                origins.append(origin)
            }
        }

        private mutating func emit(_ scalar: Unicode.Scalar, from origin: Int) {
            text.unicodeScalars.append(scalar)
            origins.append(origin)
        }

        /// `\x{..}` for one scalar value.
        static func scalarText(_ value: UInt32) -> String { "\\x{" + String(value, radix: 16) + "}" }

        /// Ranges as class items (`\x{30}-\x{39}...`).
        static func rangeText(_ ranges: [ClosedRange<UInt32>]) -> String {
            ranges.map { range in
                range.count == 1
                    ? scalarText(range.lowerBound) : scalarText(range.lowerBound) + "-" + scalarText(range.upperBound)
            }.joined()
        }

        /// The complement of sorted, disjoint `ranges` among all scalar values (their ends are never surrogates).
        static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            var next: UInt32 = 0
            for range in ranges {
                if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
                next = range.upperBound + 1
            }
            if next <= 0x10FFFF { result.append(next...0x10FFFF) }
            return result
        }

        // MARK: Escapes

        /// After a `\`: a class escape as its set, a scalar escape as `\x{..}`, anything else as written.
        private mutating func escape(at start: Int, inClass: Bool) throws(PatternError) {
            guard position < scalars.count else {
                throw PatternError(reason: "the pattern ends with a lone '\\', at character \(start + 1)")
            }
            let scalar = scalars[position]
            position += 1
            let classes: [Unicode.Scalar: (ranges: [ClosedRange<UInt32>], negated: Bool)] = [
                "d": (Self.digits, false), "D": (Self.digits, true), "w": (Self.word, false),
                "W": (Self.word, true), "s": (Self.space, false), "S": (Self.space, true),
            ]
            if let (ranges, negated) = classes[scalar] {
                if inClass {
                    emit(Self.rangeText(negated ? Self.complement(ranges) : ranges), from: start)
                } else {
                    emit((negated ? "[^" : "[") + Self.rangeText(ranges) + "]", from: start)
                }
                return
            }
            switch scalar {
            case "b" where inClass: emit(Self.scalarText(8), from: start)
            case "v": emit(Self.scalarText(0x0B), from: start)
            case "0" where !(position < scalars.count && ("0"..."9").contains(scalars[position])):
                emit(Self.scalarText(0), from: start)
            case "c":
                guard position < scalars.count, scalars[position].isASCII, scalars[position].properties.isAlphabetic
                else {
                    throw PatternError(reason: "'\\c' is not followed by a letter, at character \(start + 1)")
                }
                emit(Self.scalarText(scalars[position].value % 32), from: start)
                position += 1
            case "u":
                emit(Self.scalarText(try unicodeEscape(at: start)), from: start)
            case "p", "P":
                emit("\\" + String(scalar) + "{" + propertyName() + "}", from: start)
            case "A", "Z", "z", "Q", "E", "e", "a", "U", "h", "H", "R", "X", "N", "G", "K":
                // LinearRegex (ICU) escapes that ECMA-262 does not have.
                throw PatternError(reason: "the escape '\\\(scalar)' is not ECMA-262, at character \(start + 1)")
            default:
                emit("\\", from: start)
                emit(scalar, from: start)
            }
        }

        /// After `\p` or `\P`: the property's name in braces (`Letter`, `gc=Lu`), as the short name of its general
        /// category when it has one (LinearRegex reads those); anything else as written, for LinearRegex to refuse.
        private mutating func propertyName() -> String {
            guard position < scalars.count, scalars[position] == "{" else { return "" }
            var name = ""
            var end = position + 1
            while end < scalars.count, scalars[end] != "}" {
                name.unicodeScalars.append(scalars[end])
                end += 1
            }
            guard end < scalars.count else { return "" }
            position = end + 1
            for prefix in ["General_Category=", "gc="] where name.hasPrefix(prefix) {
                name.removeFirst(prefix.count)
            }
            return Self.categoryNames[name] ?? name
        }

        /// ECMA-262's long names (and aliases) of general categories, with their short names.
        static let categoryNames: [String: String] = [
            "Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
            "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M",
            "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N",
            "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P",
            "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps",
            "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf",
            "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc",
            "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs",
            "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc",
            "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co", "Unassigned": "Cn",
        ]

        /// After `\u`: `{hex}`, four hex digits, or a surrogate pair written as two `\uXXXX`.
        private mutating func unicodeEscape(at start: Int) throws(PatternError) -> UInt32 {
            func failure() -> PatternError {
                PatternError(reason: "the escape '\\u' is malformed or names no code point, at character \(start + 1)")
            }
            if position < scalars.count, scalars[position] == "{" {
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while position < scalars.count, let digit = Self.hex(scalars[position]) {
                    value = min(value * 16 + digit, 0x110000)
                    digits += 1
                    position += 1
                }
                guard digits > 0, position < scalars.count, scalars[position] == "}", Unicode.Scalar(value) != nil
                else { throw failure() }
                position += 1
                return value
            }
            guard let high = fourHex(at: position) else { throw failure() }
            position += 4
            if (0xD800...0xDBFF).contains(high), position + 6 <= scalars.count, scalars[position] == "\\",
                scalars[position + 1] == "u", let low = fourHex(at: position + 2), (0xDC00...0xDFFF).contains(low)
            {
                position += 6
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            guard Unicode.Scalar(high) != nil else { throw failure() }
            return high
        }

        private func fourHex(at offset: Int) -> UInt32? {
            guard offset + 4 <= scalars.count else { return nil }
            var value: UInt32 = 0
            for scalar in scalars[offset..<offset + 4] {
                guard let digit = Self.hex(scalar) else { return nil }
                value = value * 16 + digit
            }
            return value
        }

        private static func hex(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar {
            case "0"..."9": scalar.value - 0x30
            case "a"..."f": scalar.value - 0x61 + 10
            case "A"..."F": scalar.value - 0x41 + 10
            default: nil
            }
        }

        // MARK: Classes

        /// After a `[`: `[]` matches nothing, `[^]` anything; `[` and `&` inside are literal, as ECMA-262 reads them.
        private mutating func characterClass(at start: Int) throws(PatternError) {
            var negated = false
            if position < scalars.count, scalars[position] == "^" {
                negated = true
                position += 1
            }
            if position < scalars.count, scalars[position] == "]" {
                position += 1
                emit((negated ? "[" : "[^") + Self.rangeText([0...0x10FFFF]) + "]", from: start)
                return
            }
            emit(negated ? "[^" : "[", from: start)
            while true {
                guard position < scalars.count else {
                    throw PatternError(reason: "a '[' is not closed, at character \(start + 1)")
                }
                let itemStart = position
                let scalar = scalars[position]
                position += 1
                switch scalar {
                case "]":
                    emit("]", from: itemStart)
                    return
                case "\\": try escape(at: itemStart, inClass: true)
                case "[", "&": emit("\\" + String(scalar), from: itemStart)
                default: emit(scalar, from: itemStart)
                }
            }
        }
    }
}

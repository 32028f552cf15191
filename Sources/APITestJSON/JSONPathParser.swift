/// Parses an RFC 9535 JSONPath expression into a ``JSONPath/Query``, checking well-typedness as it goes.
///
/// Works on the expression's Unicode scalars; errors carry the offset of the bad spot converted to `Character`s.
/// Recursion (nested filters, parentheses, function calls) is bounded by ``maximumNesting``.
struct JSONPathParser {
    /// The deepest nesting of filters, parentheses and function calls accepted.
    static let maximumNesting = 64

    let scalars: [Unicode.Scalar]
    var position = 0
    var nesting = 0
    /// How many bracketed selections so far had blank space inside the brackets. RFC 9535's singular-query
    /// grammar (`name-segment = "[" name-selector "]"`) allows none, so `@[ 'a' ]` is not a singular query.
    var spacedBrackets = 0

    init(_ expression: String) {
        scalars = Array(expression.unicodeScalars)
    }

    // MARK: - Query

    /// jsonpath-query = root-identifier segments
    mutating func parseExpression() throws(JSONPathError) -> JSONPath.Query {
        guard peek == "$" else {
            if let scalar = peek, Self.isBlank(scalar) {
                throw error("leading whitespace is not allowed", at: position)
            }
            throw error("a JSONPath query must start with '$', found \(describe(position))", at: position)
        }
        position += 1
        let segments = try parseSegments()
        if position < scalars.count {
            if scalars[position...].allSatisfy(Self.isBlank) {
                throw error("trailing whitespace is not allowed", at: position)
            }
            throw error("unexpected \(describe(position)) after the query", at: position)
        }
        return JSONPath.Query(isRelative: false, segments: segments)
    }

    /// segments = *(S segment); stops (before any whitespace) at the first thing that is not a segment.
    mutating func parseSegments() throws(JSONPathError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while true {
            let save = position
            skipBlanks()
            switch peek {
            case "[":
                segments.append(JSONPath.Segment(isDescendant: false, selectors: try parseBracketedSelection()))
            case ".":
                position += 1
                if peek == "." {
                    position += 1
                    segments.append(try parseDescendantSegment())
                } else {
                    segments.append(JSONPath.Segment(isDescendant: false, selectors: [try parseDotSelector()]))
                }
            default:
                position = save
                return segments
            }
        }
    }

    /// After `..`: a bracketed selection, `*` or a member name.
    private mutating func parseDescendantSegment() throws(JSONPathError) -> JSONPath.Segment {
        if peek == "[" {
            return JSONPath.Segment(isDescendant: true, selectors: try parseBracketedSelection())
        }
        guard let scalar = peek, scalar == "*" || Self.isNameFirst(scalar) else {
            throw error("expected '[', '*' or a member name after '..', found \(describe(position))", at: position)
        }
        return JSONPath.Segment(isDescendant: true, selectors: [try parseDotSelector()])
    }

    /// After `.`: `*` or member-name-shorthand.
    private mutating func parseDotSelector() throws(JSONPathError) -> JSONPath.Selector {
        if peek == "*" {
            position += 1
            return .wildcard
        }
        guard let first = peek, Self.isNameFirst(first) else {
            throw error("expected a member name or '*' after '.', found \(describe(position))", at: position)
        }
        var name = String.UnicodeScalarView()
        while let scalar = peek, Self.isNameFirst(scalar) || ("0"..."9").contains(scalar) {
            name.append(scalar)
            position += 1
        }
        return .name(String(name))
    }

    // MARK: - Selectors

    /// bracketed-selection = "[" S selector *(S "," S selector) S "]"
    private mutating func parseBracketedSelection() throws(JSONPathError) -> [JSONPath.Selector] {
        position += 1
        var selectors: [JSONPath.Selector] = []
        while true {
            var start = position
            skipBlanks()
            if position != start { spacedBrackets += 1 }
            selectors.append(try parseSelector())
            start = position
            skipBlanks()
            if position != start { spacedBrackets += 1 }
            switch peek {
            case ",":
                position += 1
            case "]":
                position += 1
                return selectors
            default:
                throw error("expected ',' or ']' after selector, found \(describe(position))", at: position)
            }
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> JSONPath.Selector {
        guard let scalar = peek else {
            throw error("expected a selector, found end of expression", at: position)
        }
        switch scalar {
        case "'", "\"":
            return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            return .filter(try parseLogicalExpression())
        case "-", "0"..."9", ":":
            return try parseIndexOrSlice()
        default:
            throw error(
                "expected a selector (name, '*', index, slice or filter), found \(describe(position))",
                at: position)
        }
    }

    /// index-selector = int; slice-selector = [start S] ":" S [end S] [":" [S step]]
    private mutating func parseIndexOrSlice() throws(JSONPathError) -> JSONPath.Selector {
        let start = peek == ":" ? nil : try parseInteger()
        let afterStart = position
        skipBlanks()
        guard peek == ":" else {
            position = afterStart
            guard let start else { throw error("expected an index", at: position) }
            return .index(start)
        }
        position += 1
        skipBlanks()
        let end = isIntegerStart ? try parseInteger() : nil
        var step: Int?
        let afterEnd = position
        skipBlanks()
        if peek == ":" {
            position += 1
            let afterColon = position
            skipBlanks()
            if isIntegerStart {
                step = try parseInteger()
            } else {
                position = afterColon
            }
        } else {
            position = afterEnd
        }
        return .slice(start: start, end: end, step: step)
    }

    private var isIntegerStart: Bool {
        guard let scalar = peek else { return false }
        return scalar == "-" || ("0"..."9").contains(scalar)
    }

    /// int = "0" / (["-"] DIGIT1 *DIGIT), within ±(2^53 − 1).
    private mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = position
        let negative = peek == "-"
        if negative { position += 1 }
        guard let first = peek, ("0"..."9").contains(first) else {
            throw error("expected a digit, found \(describe(position))", at: position)
        }
        if first == "0" {
            position += 1
            if negative { throw error("'-0' is not a valid index", at: start) }
            if let next = peek, ("0"..."9").contains(next) {
                throw error("leading zeros are not allowed in integers", at: start)
            }
            return 0
        }
        var magnitude = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            magnitude = min(magnitude * 10 + Int(scalar.value - 0x30), Self.maximumInteger + 1)
            position += 1
        }
        guard magnitude <= Self.maximumInteger else {
            throw error("integer out of range (the limit is ±(2^53 − 1))", at: start)
        }
        return negative ? -magnitude : magnitude
    }

    /// The largest integer allowed in indexes and slices: 2^53 − 1.
    static let maximumInteger = 9_007_199_254_740_991

    // MARK: - String literals

    /// A single- or double-quoted string literal with RFC 9535 escapes.
    mutating func parseStringLiteral() throws(JSONPathError) -> String {
        let start = position
        guard let quote = peek else { throw error("expected a string", at: position) }
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw error("unterminated string literal", at: start) }
            if scalar == quote {
                position += 1
                return String(result)
            }
            if scalar.value < 0x20 {
                throw error(
                    "control character U+\(Self.hex4(scalar.value)) must be escaped in a string literal",
                    at: position)
            }
            if scalar == "\\" {
                result.append(try parseEscape(quote: quote))
            } else {
                result.append(scalar)
                position += 1
            }
        }
    }

    /// An escape sequence at `position` (a backslash) in a string quoted with `quote`.
    private mutating func parseEscape(quote: Unicode.Scalar) throws(JSONPathError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let scalar = peek else { throw error("unterminated string literal", at: start) }
        position += 1
        switch scalar {
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "/", "\\": return scalar
        case quote: return scalar
        case "u":
            let first = try parseHex4()
            switch first {
            case 0xD800...0xDBFF:
                guard peek == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" else {
                    throw error(
                        "high surrogate \\u\(Self.hex4(first)) must be followed by a low surrogate escape",
                        at: start)
                }
                position += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second),
                    let joined = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                else {
                    throw error("\\u\(Self.hex4(second)) is not a low surrogate", at: position - 6)
                }
                return joined
            case 0xDC00...0xDFFF:
                throw error("lone low surrogate \\u\(Self.hex4(first))", at: start)
            default:
                guard let decoded = Unicode.Scalar(first) else { throw error("invalid \\u escape", at: start) }
                return decoded
            }
        default:
            throw error("invalid escape sequence '\\\(scalar)' in string literal", at: start)
        }
    }

    private mutating func parseHex4() throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Self.hexValue(scalar) else {
                throw error("expected a hex digit in \\u escape, found \(describe(position))", at: position)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f": return scalar.value - 0x61 + 10
        case "A"..."F": return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    // MARK: - Scanning

    var peek: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// The scalars at `position` start with `text`.
    func lookingAt(_ text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    mutating func skipBlanks() {
        while let scalar = peek, Self.isBlank(scalar) { position += 1 }
    }

    /// B = %x20 / %x09 / %x0A / %x0D
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF
    static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Errors

    /// A readable name for the scalar at `index`: `'x'`, `end of expression`, `U+000A`.
    func describe(_ index: Int) -> String {
        guard index < scalars.count else { return "end of expression" }
        let scalar = scalars[index]
        if scalar.value < 0x20 || scalar.value == 0x7F { return "U+" + Self.hex4(scalar.value) }
        return "'\(Character(scalar))'"
    }

    /// An error at scalar `index`, with the offset converted to `Character`s.
    func error(_ message: String, at index: Int) -> JSONPathError {
        let clamped = min(max(index, 0), scalars.count)
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<clamped])
        return JSONPathError(message: message, offset: String(prefix).count)
    }
}

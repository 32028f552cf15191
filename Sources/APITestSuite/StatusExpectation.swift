package import APITestSupport

/// The acceptable response status codes: exact codes (`200`) and classes (`2xx`).
package struct StatusExpectation: Sendable, Hashable, CustomStringConvertible {
    /// One acceptable code or class.
    package enum Pattern: Sendable, Hashable, CustomStringConvertible {
        /// An exact code, 100...599.
        case code(Int)
        /// A class, 1...5: `2` means 200...299.
        case codeClass(Int)

        package func accepts(_ status: Int) -> Bool {
            switch self {
            case .code(let code): status == code
            case .codeClass(let digit): status / 100 == digit && status >= 100 && status <= 599
            }
        }

        package var description: String {
            switch self {
            case .code(let code): String(code)
            case .codeClass(let digit): "\(digit)xx"
            }
        }

        /// Parses `200`, `"200"` or `"2xx"` (also `2XX`).
        package init?(_ text: String) {
            guard let pattern = Self.parse(text) else { return nil }
            self = pattern
        }

        private static func parse(_ text: String) -> Pattern? {
            if let characters = threePrintableASCII(text) { return parse(characters) }
            let text = text.trimmingCharacters(in: " \t\r\n")
            if text.count == 3, text.lowercased().hasSuffix("xx"), let first = text.first,
                let digit = first.wholeNumberValue, first.isASCII, (1...5).contains(digit)
            {
                return .codeClass(digit)
            } else if text.count == 3, text.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(text),
                (100...599).contains(code)
            {
                return .code(code)
            }
            return nil
        }

        /// The bytes of a text of exactly three printable ASCII characters (the common case, which needs no
        /// trimming), else `nil`.
        private static func threePrintableASCII(_ text: String) -> (UInt8, UInt8, UInt8)? {
            var bytes = text.utf8.makeIterator()
            guard let first = bytes.next(), let second = bytes.next(), let third = bytes.next(), bytes.next() == nil
            else { return nil }
            let printable: ClosedRange<UInt8> = 0x21...0x7E
            guard printable.contains(first), printable.contains(second), printable.contains(third) else { return nil }
            return (first, second, third)
        }

        /// `1xx`...`5xx` (either case) or a code 100...599, from three printable ASCII characters.
        private static func parse(_ characters: (UInt8, UInt8, UInt8)) -> Pattern? {
            let (first, second, third) = characters
            let x = UInt8(ascii: "x")
            if second | 0x20 == x, third | 0x20 == x, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(first) {
                return .codeClass(Int(first - UInt8(ascii: "0")))
            }
            let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
            guard digits.contains(first), digits.contains(second), digits.contains(third) else { return nil }
            let zero = UInt8(ascii: "0")
            let code = Int(first - zero) * 100 + Int(second - zero) * 10 + Int(third - zero)
            return (100...599).contains(code) ? .code(code) : nil
        }
    }

    package var patterns: [Pattern]
    package var location: SourceLocation

    package init(patterns: [Pattern], location: SourceLocation) {
        self.patterns = patterns
        self.location = location
    }

    /// True when `status` matches any pattern.
    package func accepts(_ status: Int) -> Bool {
        patterns.contains { $0.accepts(status) }
    }

    /// `200`, `200 or 201`, `200, 201 or 3xx`.
    package var description: String {
        let parts = patterns.map(\.description)
        guard let last = parts.last else { return "" }
        if parts.count == 1 { return last }
        return parts.dropLast().joined(separator: ", ") + " or " + last
    }
}

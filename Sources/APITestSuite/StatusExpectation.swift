import APITestSupport

/// The acceptable response status codes: exact codes (`200`) and classes (`2xx`).
public struct StatusExpectation: Sendable, Hashable, CustomStringConvertible {
    /// One acceptable code or class.
    public enum Pattern: Sendable, Hashable, CustomStringConvertible {
        /// An exact code, 100...599.
        case code(Int)
        /// A class, 1...5: `2` means 200...299.
        case codeClass(Int)

        public func accepts(_ status: Int) -> Bool {
            switch self {
            case .code(let code): status == code
            case .codeClass(let digit): status / 100 == digit && status >= 100 && status <= 599
            }
        }

        public var description: String {
            switch self {
            case .code(let code): String(code)
            case .codeClass(let digit): "\(digit)xx"
            }
        }

        /// Parses `200`, `"200"` or `"2xx"` (also `2XX`).
        public init?(_ text: String) {
            let text = text.trimmingCharacters(in: " \t\r\n")
            if text.count == 3, text.lowercased().hasSuffix("xx"), let first = text.first,
                let digit = first.wholeNumberValue, first.isASCII, (1...5).contains(digit)
            {
                self = .codeClass(digit)
            } else if text.count == 3, text.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(text),
                (100...599).contains(code)
            {
                self = .code(code)
            } else {
                return nil
            }
        }
    }

    public var patterns: [Pattern]
    public var location: SourceLocation

    public init(patterns: [Pattern], location: SourceLocation) {
        self.patterns = patterns
        self.location = location
    }

    /// True when `status` matches any pattern.
    public func accepts(_ status: Int) -> Bool {
        patterns.contains { $0.accepts(status) }
    }

    /// `200`, `200 or 201`, `200, 201 or 3xx`.
    public var description: String {
        let parts = patterns.map(\.description)
        guard let last = parts.last else { return "" }
        if parts.count == 1 { return last }
        return parts.dropLast().joined(separator: ", ") + " or " + last
    }
}

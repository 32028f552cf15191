package import Foundation

/// A regular expression a suite writes (ICU syntax, as `NSRegularExpression` reads it), compiled once when the
/// suite loads; the runner matches with ``expression`` and messages show ``pattern``.
///
/// Two expressions are equal when their patterns are.
package struct RegularExpression: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    package let pattern: String
    /// The compiled expression (immutable, so safe to share between threads).
    package let expression: NSRegularExpression

    /// Compiles `pattern`; throws what `NSRegularExpression` throws for an invalid one.
    package init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: pattern)
    }

    /// Whether the pattern matches somewhere in `text`.
    package func firstMatch(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// How many capture groups the pattern has.
    package var numberOfCaptureGroups: Int { expression.numberOfCaptureGroups }

    /// The pattern as written.
    package var description: String { pattern }

    package static func == (lhs: RegularExpression, rhs: RegularExpression) -> Bool {
        lhs.pattern == rhs.pattern
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}

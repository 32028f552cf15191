import Foundation

/// A regular expression a suite writes (ICU syntax, as `NSRegularExpression` reads it), compiled once when the
/// suite loads; the runner matches with ``expression`` and messages show ``pattern``.
///
/// Two expressions are equal when their patterns are.
public struct RegularExpression: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// The compiled expression (immutable, so safe to share between threads).
    public let expression: NSRegularExpression

    /// Compiles `pattern`; throws what `NSRegularExpression` throws for an invalid one.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: pattern)
    }

    /// How many capture groups the pattern has.
    public var numberOfCaptureGroups: Int { expression.numberOfCaptureGroups }

    /// The pattern as written.
    public var description: String { pattern }

    public static func == (lhs: RegularExpression, rhs: RegularExpression) -> Bool {
        lhs.pattern == rhs.pattern
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}

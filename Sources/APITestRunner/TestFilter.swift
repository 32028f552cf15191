/// One `--filter` regular expression, searched (unanchored) in `suite name › test name`.
package struct TestFilter: Sendable {
    /// The expression as given.
    package let pattern: String
    /// Immutable once made; `Regex` compiles its program once, atomically, so matching from several threads is safe.
    nonisolated(unsafe) private let regex: Regex<AnyRegexOutput>

    /// A bad `--filter` expression, with the parser's reason.
    package struct InvalidPattern: Error, Sendable, CustomStringConvertible {
        package var pattern: String
        package var reason: String
        package var description: String { "--filter '\(pattern)' is not a valid regular expression: \(reason)" }
    }

    /// Compiles `pattern` (Swift `Regex` syntax, which accepts the usual PCRE/ICU forms).
    ///
    /// - Throws: `InvalidPattern` naming the problem.
    package init(_ pattern: String) throws(InvalidPattern) {
        do {
            regex = try Regex(pattern)
        } catch {
            throw InvalidPattern(pattern: pattern, reason: "\(error)")
        }
        self.pattern = pattern
    }

    /// Whether the expression matches somewhere in `text`.
    package func matches(_ text: String) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }
}

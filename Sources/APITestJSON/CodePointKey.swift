/// A string that compares and hashes by its code points, as a key of a dictionary or set of JSON member names
/// (`[String: …]` would merge names that are only canonically equivalent).
package struct CodePointKey: Hashable, Sendable {
    /// The string.
    package let text: String

    /// The key of `text`.
    @inlinable
    package init(_ text: String) {
        self.text = text
    }

    @inlinable
    package static func == (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
        lhs.text.hasSameCodePoints(as: rhs.text)
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        text.hashCodePoints(into: &hasher)
    }
}

/// An error in a JSONPath expression: a syntax error or an ill-typed filter (RFC 9535 §2.4.3).
package struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ']' or ',' after selector, found 'x'".
    package let message: String
    /// The 0-based offset of the bad spot in the expression, counted in `Character`s, so that
    /// `String(repeating: " ", count: offset) + "^"` puts a caret under it.
    package let offset: Int

    /// Creates an error at a `Character` offset of the expression.
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// "offset N: message".
    package var description: String {
        "offset \(offset): \(message)"
    }
}

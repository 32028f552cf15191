/// An error found while parsing JSON text, with the position of the offending byte.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after object member, found 'x'".
    package let message: String
    /// The 0-based byte offset of the offending byte in the input.
    package let offset: Int
    /// The 1-based line of the offending byte (lines end at LF, CR or CR LF).
    package let line: Int
    /// The 1-based column of the offending byte, counted in Unicode scalars from the start of its line.
    package let column: Int

    /// Creates an error; the parser fills in all four fields.
    package init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// "line L, column C: message".
    package var description: String {
        "line \(line), column \(column): \(message)"
    }
}

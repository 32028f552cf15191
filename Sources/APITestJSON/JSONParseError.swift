/// An error found while parsing JSON text, with the position of the offending byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after object member, found 'x'".
    public let message: String
    /// The 0-based byte offset of the offending byte in the input.
    public let offset: Int
    /// The 1-based line of the offending byte (lines end at LF, CR or CR LF).
    public let line: Int
    /// The 1-based column of the offending byte, counted in Unicode scalars from the start of its line.
    public let column: Int

    /// Creates an error; the parser fills in all four fields.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// "line L, column C: message".
    public var description: String {
        "line \(line), column \(column): \(message)"
    }
}

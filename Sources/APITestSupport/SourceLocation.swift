/// A place in a source file: the file's path as the user gave it, and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, for places where the column adds nothing.
    public var fileAndLine: String { "\(file):\(line)" }
}

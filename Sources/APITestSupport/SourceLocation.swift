/// A place in a source file: the file's path as the user gave it, and a 1-based line and column.
package struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    package var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, for places where the column adds nothing.
    package var fileAndLine: String { "\(file):\(line)" }
}

package import APITestSupport

/// One simple command of a shell script: its words (the first is the command's name) and what surrounds it.
package struct ShellCommand: Sendable, Hashable {
    /// The words, command name first.
    package var words: [ShellWord]
    /// The line (from 1) where the command starts.
    package var line: Int
    /// Whether the command reads the output of the one before it (`curl … | jq .`: this is `jq .`).
    package var isPipeTarget = false
    /// Redirections left out of the words (`> out.json`, `2>/dev/null`), as written.
    package var redirections: [String] = []
    /// The line (from 1) each word starts on, by the word's index: a command continued with `\` spans several.
    package var wordLines: [Int] = []

    /// A command of `words` starting on `line`.
    package init(words: [ShellWord], line: Int) {
        self.words = words
        self.line = line
    }

    /// The line the word at `index` starts on; the command's first line when the splitter did not say.
    package func line(ofWord index: Int) -> Int {
        wordLines.indices.contains(index) ? wordLines[index] : line
    }
}

/// Why a command line cannot be read as a shell would read it, and where.
package struct ShellSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// The line (from 1).
    package var line: Int
    /// The column (from 1, in characters).
    package var column: Int

    /// An error at `line`, `column`.
    package init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String { "line \(line), column \(column): \(message)" }
}

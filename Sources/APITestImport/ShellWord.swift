/// One word of a shell command line after quote removal: literal text and references to environment variables
/// (`$NAME`, `${NAME}` outside single quotes), which the importers write as `{{ env.NAME }}` instead of a value.
package struct ShellWord: Sendable, Hashable, CustomStringConvertible {
    /// A run of the word: text as the shell passes it, or an environment variable's value.
    package enum Piece: Sendable, Hashable {
        /// Text, quotes and escapes removed.
        case literal(String)
        /// `$NAME` or `${NAME}`: the value of environment variable `NAME`.
        case environment(String)
    }

    /// The pieces in order; adjacent literals are joined.
    package private(set) var pieces: [Piece] = []
    /// The line (from 1) of the input where the word starts.
    package var line: Int

    /// An empty word starting on `line`.
    package init(line: Int) {
        self.line = line
    }

    /// A word of `pieces` starting on `line`.
    package init(_ pieces: [Piece], line: Int = 1) {
        self.line = line
        for piece in pieces { append(piece) }
    }

    /// Appends `piece`, joining it to a literal before it.
    package mutating func append(_ piece: Piece) {
        if case .literal(let text) = piece, case .literal(let before)? = pieces.last {
            pieces[pieces.count - 1] = .literal(before + text)
        } else if piece != .literal("") {
            pieces.append(piece)
        }
    }

    /// The word's text when it has no environment reference.
    package var literal: String? {
        switch pieces.count {
        case 0: return ""
        case 1: if case .literal(let text) = pieces[0] { return text } else { return nil }
        default: return nil
        }
    }

    /// The word as a suite template: environment references as `{{ env.NAME }}`.
    package var template: String {
        pieces.map {
            switch $0 {
            case .literal(let text): text
            case .environment(let name): "{{ env.\(name) }}"
            }
        }.joined()
    }

    /// The word as the shell would show it with variables unexpanded: `$NAME` for a reference.
    package var description: String {
        pieces.map {
            switch $0 {
            case .literal(let text): text
            case .environment(let name): "$" + name
            }
        }.joined()
    }

    /// The word from its `index` character on (for `-XPOST`'s argument `POST`), or nil when that falls inside an
    /// environment reference.
    package func dropping(_ count: Int) -> ShellWord? {
        var rest = count
        var result = ShellWord(line: line)
        for piece in pieces {
            if rest == 0 {
                result.append(piece)
                continue
            }
            guard case .literal(let text) = piece else { return nil }
            if text.count <= rest {
                rest -= text.count
            } else {
                result.append(.literal(String(text.dropFirst(rest))))
                rest = 0
            }
        }
        return rest == 0 ? result : nil
    }

    /// The literal text the word starts with (before its first environment reference).
    package var literalPrefix: String {
        if case .literal(let text)? = pieces.first { return text }
        return ""
    }
}

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

    /// A command of `words` starting on `line`.
    package init(words: [ShellWord], line: Int) {
        self.words = words
        self.line = line
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

/// A request as a curl command line for a POSIX shell: pasting it sends the same request apitest sent (or would
/// send). Secrets appear only as `"${NAME}"` references to the environment variables they came from, or as the
/// masker's placeholder when no variable holds them; `notes` say where the command departs from the request.
///
/// The words are quoted for any POSIX shell (dash as well as bash): single quotes, and bytes that would not show as
/// themselves written by `printf` (`"$(printf '\t')"`). In ``words`` a line feed stays between the quotes, as a
/// script holds it; ``line`` is always one line.
///
/// The runner builds it (`APITestRunner/ReproduceBuilder.swift`); reporters only print it.
package struct ReproduceCommand: Sendable, Hashable, Codable {
    /// The words of the command, each already quoted for the shell: `curl`, options and their arguments. A word may
    /// hold a line feed between single quotes (a body of several lines): ``line`` has the command on one line.
    package var words: [String]
    /// Text piped into the command (`printf '...' |`), for a body no shell word can hold (one with NUL bytes);
    /// `nil` for none.
    package var input: String?
    /// What the command does not reproduce exactly, one sentence each (a credential masked, a value apitest encoded).
    package var notes: [String]
    /// The order the request was sent in across the run (1 for the first); `nil` when it was never sent.
    package var sequence: Int?
    /// The command on one line when ``words`` hold a line feed: in a subshell that first sets a variable to a line
    /// feed, which the words refer to instead; `nil` when ``words`` are one line already.
    package var oneLine: String?

    /// A command of `words`, with `notes`.
    package init(
        words: [String], input: String? = nil, notes: [String] = [], sequence: Int? = nil, oneLine: String? = nil
    ) {
        self.words = words
        self.input = input
        self.notes = notes
        self.sequence = sequence
        self.oneLine = oneLine
    }

    /// The command on one line: what reports print after `reproduce:`.
    package var line: String {
        if let oneLine { return oneLine }
        let command = words.joined(separator: " ")
        guard let input else { return command }
        return "\(input) | \(command)"
    }

    /// The command over several lines, an option and its argument per line after a `\`, each note as a `# note:`
    /// comment line above it: what `--curl` files and `apitest export curl` print.
    package var script: String {
        var text = ""
        for note in notes { text += "# note: \(note)\n" }
        if let input { text += "\(input) |\n  " }
        var lines: [String] = []
        var current = ""
        for word in words {
            if current.isEmpty {
                current = word
            } else if word.hasPrefix("-") {
                lines.append(current)
                current = word
            } else {
                current += " " + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return text + lines.joined(separator: " \\\n  ") + "\n"
    }
}

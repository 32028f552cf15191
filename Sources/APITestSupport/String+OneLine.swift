// MARK: - One line

extension String {
    /// The text with its line breaks written as escapes (`\n`, `\r`, `\u{B}`, `\u{C}`, `\u{85}`, `\u{2028}`,
    /// `\u{2029}`), so that text from a server (a JSON member name in a path) shown on a line of its own cannot
    /// start another one; nothing else changes.
    package var onOneLine: String { DisplayEscaping.lineBreaksOnly.escape(self) }
}

extension DisplayEscaping {
    /// The line breaks alone, LF and CR by their short forms (``Swift/String/onOneLine``).
    static let lineBreaksOnly = DisplayEscaping(.lineBreaks, replacing: ["\n": #"\n"#, "\r": #"\r"#])
}

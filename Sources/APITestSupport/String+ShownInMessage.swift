// MARK: - A value quoted in a message

extension String {
    /// This text, a value quoted from a document or a command line (a schema's `type`, a `$ref`, an option's name),
    /// as a message shows it: line breaks, tabs and other controls (ESC, CSI U+009B), bidirectional controls and
    /// invisible characters are written as escapes (`\n`, `\t`, `\u{1B}`, `\u{202E}`), so a message stays on its
    /// line, reads in order and never drives the terminal. Printable text is kept as it is, so escaping twice
    /// changes nothing more.
    package var shownInMessage: String { DisplayEscaping.message.escape(self) }
}

extension DisplayEscaping {
    /// A value quoted in a message (``Swift/String/shownInMessage``).
    static let message = DisplayEscaping(
        [.lineBreaks, .controls, .bidiControls, .byteOrderMark, .noncharacters, .invisible],
        replacing: ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#])
}

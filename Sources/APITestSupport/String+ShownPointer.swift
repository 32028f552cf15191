// MARK: - A JSON Pointer shown to people

extension String {
    /// This JSON Pointer text (RFC 6901, `/paths/~1users/get`) as a message shows it: a member name of the document
    /// may hold any character, so line breaks, tabs and other controls, bidirectional controls and invisible
    /// characters are written as escapes (`\n`, `\t`, `\u{1B}`, `\u{202E}`) and the pointer stays on its line and
    /// reads in order. (`~` and `/` in a name are the pointer's own escapes, `~0` and `~1`, already.)
    package var shownAsPointer: String { DisplayEscaping.pointer.escape(self) }
}

extension DisplayEscaping {
    /// A JSON Pointer in a message (``Swift/String/shownAsPointer``).
    static let pointer = DisplayEscaping(
        [.lineBreaks, .controls, .bidiControls, .byteOrderMark, .noncharacters, .invisible],
        replacing: ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#])
}

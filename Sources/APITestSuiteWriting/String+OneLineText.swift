import APITestSupport

// MARK: - One line of text

extension String {
    /// The text as one line a terminal shows as it is: line breaks, tabs, other C0 and C1 controls, DEL, the line
    /// and paragraph separators, the bidirectional controls and the byte-order mark are written as escapes (`\n`,
    /// `\r`, `\t`, `\u{1B}`), so that a name from the source (a Postman collection's, a recorded header's) cannot
    /// start a line of its own in a note or a comment of the suite, nor reorder or colour what follows it.
    package var onOneLineForNotes: String { DisplayEscaping.notes.escape(self) }
}

extension DisplayEscaping {
    /// A note's or a comment's escaping (``Swift/String/onOneLineForNotes``).
    static let notes = DisplayEscaping(
        [.controls, .lineBreaks, .bidiControls, .byteOrderMark],
        replacing: ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#])
}

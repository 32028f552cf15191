// MARK: - The excerpt of a source line

extension DiagnosticRenderer {
    /// The part of a source line a diagnostic shows, escaped for the terminal, with the carets under its column.
    struct Excerpt: Equatable {
        /// The line as shown: a window around the column (with `…` where the line goes on), every control and
        /// invisible character written as an escape (`\u{1B}`, `\r`); tabs kept.
        var text: String
        /// What comes before the carets: a space for each column of `text` before the diagnostic's column, a tab for
        /// a tab, so the carets sit under the character they point at.
        var padding: String
        /// How many carets: the columns of `text` the diagnostic's characters take (at least 1).
        var width: Int
    }

    /// A line up to this many Unicode scalars is shown whole; a longer one (a minified JSON document is one line) is
    /// cut to ``excerptContext`` characters on each side of the column.
    static let wholeLineLimit = 160

    /// How many characters a cut line shows before the column, and after the underlined characters (which show at
    /// most this many).
    static let excerptContext = 60

    /// The excerpt of `line` for a diagnostic at the 1-based `column` (counted in Unicode scalars, as libyaml and
    /// the JSON parser count them) underlining `length` scalars: a window of the line around the column when the
    /// line is long, with every character a terminal would act on or not show written as an escape
    /// (``DisplayEscaping/excerpt``), and the carets' padding and width measured on what is shown.
    static func excerpt(line: Substring, column: Int, length: Int) -> Excerpt {
        let scalars = line.unicodeScalars
        let count = scalars.count
        let start = min(max(0, column - 1), count)
        let underlineEnd = min(count, start + max(1, length))
        var windowStart = 0
        var windowEnd = count
        if count > wholeLineLimit {
            windowStart = max(0, start - excerptContext)
            windowEnd = min(count, min(underlineEnd, start + excerptContext) + excerptContext)
        }
        let lower = scalars.index(scalars.startIndex, offsetBy: windowStart)
        let upper = scalars.index(lower, offsetBy: windowEnd - windowStart)
        let shown = Substring(scalars[lower..<upper])

        var excerpt = Excerpt(text: windowStart > 0 ? "…" : "", padding: windowStart > 0 ? " " : "", width: 0)
        var offset = windowStart
        for character in shown {
            let text = DisplayEscaping.excerpt.escape(String(character))
            let isTab = text == "\t"
            if offset < start {
                excerpt.padding += isTab ? "\t" : String(repeating: " ", count: text.count)
            } else if offset < underlineEnd {
                excerpt.width += isTab ? 1 : text.count
            }
            excerpt.text += text
            offset += character.unicodeScalars.count
        }
        if windowEnd < count { excerpt.text += "…" }
        excerpt.width = max(1, excerpt.width)
        return excerpt
    }
}

extension DisplayEscaping {
    /// A source line in a diagnostic's excerpt (``DiagnosticRenderer/excerpt(line:column:length:)``): every control
    /// but the tab (which the carets' padding repeats), line breaks, bidirectional controls and invisible characters,
    /// carriage return as `\r`.
    static let excerpt = DisplayEscaping(
        [.lineBreaks, .controls, .bidiControls, .byteOrderMark, .noncharacters, .invisible],
        replacing: ["\t": "\t", "\r": #"\r"#])
}

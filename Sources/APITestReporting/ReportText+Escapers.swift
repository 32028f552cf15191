import APITestSupport

// MARK: - Escapers

extension ReportText {
    /// Each format's escaping: the characters of ``ReportText/visibleCharacters`` made visible, and what the
    /// format writes for tab, line feed, carriage return and its own markup characters (the scalar itself keeps it).
    enum Escaper {
        /// Tab and line feed as they are.
        private static let kept: [Unicode.Scalar: String] = ["\t": "\t", "\n": "\n"]

        /// XML character data: `&`, `<`, `>` as entities, carriage return as `&#13;`.
        static let xmlText = DisplayEscaping(
            visibleCharacters, replacing: kept.merging(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"]) { $1 })

        /// An XML attribute value in double quotes: tab and line breaks as character references too.
        static let xmlAttribute = DisplayEscaping(
            visibleCharacters,
            replacing: [
                "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;",
                "\r": "&#13;",
            ])

        /// HTML text and attribute values: `& < > " '` and carriage return as references.
        static let html = DisplayEscaping(
            visibleCharacters,
            replacing: kept.merging(
                ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "\r": "&#13;"]
            ) { $1 })

        /// Plain text and TAP: carriage return as `\r`.
        static let plain = DisplayEscaping(visibleCharacters, replacing: kept.merging(["\r": #"\r"#]) { $1 })

        /// One terminal line: tab, carriage return and line feed as `\t`, `\r`, `\n`.
        static let terminalLine = DisplayEscaping(
            visibleCharacters, replacing: ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#])

        /// One line: tab and line breaks as spaces.
        static let oneLine = DisplayEscaping(visibleCharacters, replacing: ["\n": " ", "\r": " ", "\t": " "])
    }
}

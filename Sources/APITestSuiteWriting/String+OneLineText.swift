// MARK: - One line of text

extension String {
    /// The text as one line a terminal shows as it is: line breaks, tabs, other C0 and C1 controls, DEL, the line
    /// and paragraph separators and the bidirectional controls are written as escapes (`\n`, `\r`, `\t`,
    /// `\u{1B}`), so that a name from the source (a Postman collection's, a recorded header's) cannot start a line of
    /// its own in a note or a comment of the suite, nor reorder or colour what follows it.
    package var onOneLineForNotes: String {
        guard unicodeScalars.contains(where: Self.isEscapedInNotes) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where Self.isEscapedInNotes(scalar):
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `scalar` is written as an escape in a note.
    private static func isEscapedInNotes(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}

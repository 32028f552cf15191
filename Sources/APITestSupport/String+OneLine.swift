// MARK: - One line

extension String {
    /// The text with its line breaks written as escapes (`\n`, `\r`, `\u{B}`, `\u{C}`, `\u{85}`, `\u{2028}`,
    /// `\u{2029}`), so that text from a server (a JSON member name in a path) shown on a line of its own cannot
    /// start another one; nothing else changes.
    package var onOneLine: String {
        guard unicodeScalars.contains(where: Self.isLineBreak) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case _ where Self.isLineBreak(scalar):
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}

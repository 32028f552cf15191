/// An error found while parsing JSON text, with the position of the offending byte.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after object member, found 'x'".
    package let message: String
    /// The 0-based byte offset of the offending byte in the input.
    package let offset: Int
    /// The 1-based line of the offending byte (lines end at LF, CR or CR LF).
    package let line: Int
    /// The 1-based column of the offending byte, counted in Unicode scalars from the start of its line.
    package let column: Int
    /// Where in the document the offending byte is, as a JSON Pointer's reference tokens (RFC 6901, unescaped): the
    /// member or element whose value holds it (`["paths", "/users", "get"]`), or the container it is between the
    /// members of; empty at the top. In a minified document, where every position is on line 1, it says where the
    /// column is.
    package let pointer: [String]

    /// Creates an error; the parser fills in every field.
    package init(message: String, offset: Int, line: Int, column: Int, pointer: [String] = []) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.pointer = pointer
    }

    /// The pointer as RFC 6901 text: `/paths/~1users/get` (`~` written `~0`, `/` written `~1`); empty at the top.
    /// As it comes from the document, it may hold any character: shown to people, it goes through an escaper of
    /// the display (``JSONPointer/shown(_:)`` in APITestJSONSchema).
    package var pointerText: String {
        var result = ""
        for token in pointer {
            result += "/"
            for character in token.unicodeScalars {
                switch character {
                case "~": result += "~0"
                case "/": result += "~1"
                default: result.unicodeScalars.append(character)
                }
            }
        }
        return result
    }

    /// "line L, column C: message".
    package var description: String {
        "line \(line), column \(column): \(message)"
    }
}

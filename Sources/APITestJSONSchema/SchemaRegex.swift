import Foundation

/// An ECMA-262 pattern compiled for `NSRegularExpression` (ICU), unanchored as JSON Schema requires.
///
/// ECMA-262 character-class escapes differ from ICU's: `\d` and `\w` are ASCII-only (`[0-9]`, `[A-Za-z0-9_]`)
/// and `\s` includes U+FEFF, so those escapes are rewritten before compiling.
package final class SchemaRegex: @unchecked Sendable {
    /// The pattern as written (ECMA-262).
    package let source: String
    private let expression: NSRegularExpression
    /// The same pattern as an automaton for printable ASCII text, when it is in the subset ``ASCIIPattern`` reads:
    /// most values are answered without ICU (and without bridging the text to UTF-16).
    let asciiProgram: ASCIIPattern?

    package init?(_ source: String) {
        self.source = source
        guard let expression = try? NSRegularExpression(pattern: Self.translate(source), options: []) else {
            return nil
        }
        self.expression = expression
        self.asciiProgram = ASCIIPattern(source)
    }

    /// Whether the pattern matches anywhere in `string`.
    package func matches(_ string: String) -> Bool {
        if let verdict = asciiProgram?.matches(string) { return verdict }
        return matchesWithICU(string)
    }

    /// Whether ICU finds the pattern in `string` (what ``matches(_:)`` answers when the automaton cannot).
    package func matchesWithICU(_ string: String) -> Bool {
        let range = NSRange(string.startIndex..<string.endIndex, in: string)
        return expression.firstMatch(in: string, options: [], range: range) != nil
    }

    /// Whether the pattern is in the subset that ``ASCIIPattern`` reads.
    package var hasASCIIProgram: Bool { asciiProgram != nil }

    /// Whether `string` is answered by the ASCII automaton rather than ICU.
    package func usesASCIIProgram(for string: String) -> Bool {
        asciiProgram?.matches(string) != nil
    }

    /// Rewrites ECMA-262 escapes whose ICU meaning differs.
    static func translate(_ pattern: String) -> String {
        var result = ""
        var inClass = false
        var iterator = pattern.makeIterator()
        while let character = iterator.next() {
            if character == "\\" {
                guard let next = iterator.next() else {
                    result.append("\\")
                    break
                }
                switch next {
                case "d": result += inClass ? "0-9" : "[0-9]"
                case "D": result += inClass ? "\\x{0}-/:-\\x{10FFFF}" : "[^0-9]"
                case "w": result += inClass ? "A-Za-z0-9_" : "[A-Za-z0-9_]"
                case "W": result += inClass ? "\\x{0}-/:-@\\[-^`{-\\x{10FFFF}" : "[^A-Za-z0-9_]"
                // ECMA-262 white space includes U+FEFF, which ICU's \s lacks.
                case "s": result += inClass ? "\\s\\x{FEFF}" : "[\\s\\x{FEFF}]"
                case "S" where !inClass: result += "[^\\s\\x{FEFF}]"
                default:
                    result.append("\\")
                    result.append(next)
                }
                continue
            }
            if character == "[" && !inClass {
                inClass = true
            } else if character == "]" && inClass {
                inClass = false
            }
            result.append(character)
        }
        return result
    }
}

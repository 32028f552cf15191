// MARK: - Suggestions

extension JSONPath {
    /// `expression` with each dot-shorthand name that RFC 9535 does not allow there (`$.headers.Content-Type`)
    /// written in bracket notation (`$.headers['Content-Type']`), when that makes a valid JSONPath; else `nil`.
    /// Names follow the parser's own rule (`name-first`, then digits too) and are escaped as normalized paths are.
    package static func bracketNotation(for expression: String) -> String? {
        var result = ""
        var changed = false
        var depth = 0
        var quote: Character?
        var index = expression.startIndex
        while index < expression.endIndex {
            let character = expression[index]
            if let open = quote {
                result.append(character)
                if character == "\\", expression.index(after: index) < expression.endIndex {
                    index = expression.index(after: index)
                    result.append(expression[index])
                } else if character == open {
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "[" || character == "(" {
                depth += 1
                result.append(character)
            } else if character == "]" || character == ")" {
                depth -= 1
                result.append(character)
            } else if character == ".", depth == 0 {
                let start = expression.index(after: index)
                let end = expression[start...].firstIndex { $0 == "." || $0 == "[" } ?? expression.endIndex
                let name = expression[start..<end]
                if name.isEmpty || name == "*" || isShorthandName(name) {
                    result.append(character)
                } else {
                    result += "['" + JSONPath.escapedMemberName(String(name)) + "']"
                    changed = true
                    index = end
                    continue
                }
            } else {
                result.append(character)
            }
            index = expression.index(after: index)
        }
        guard changed, (try? JSONPath(result)) != nil else { return nil }
        return result
    }

    /// Whether `name` may follow a dot: `name-first`, then `name-first` or a digit (RFC 9535 member-name-shorthand).
    private static func isShorthandName(_ name: Substring) -> Bool {
        for (offset, scalar) in name.unicodeScalars.enumerated() {
            let isDigit = ("0"..."9").contains(scalar)
            if !(JSONPathParser.isNameFirst(scalar) || (offset > 0 && isDigit)) { return false }
        }
        return true
    }
}

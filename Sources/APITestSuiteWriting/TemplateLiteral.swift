package import APITestJSON
import Foundation

/// Imported text is data, never template: what an importer copies from its source (a recorded header, a body, a
/// Postman value) is written so that the suite sends it as it is, even when it holds placeholder syntax
/// (`{{ env.AWS_SECRET_ACCESS_KEY }}` in a recorded body must not make the run send that secret).
///
/// The suite format reads `{{` as the start of a placeholder and has no escape character, but a placeholder may hold
/// an expression, and the string expression `'{'` renders one brace: so each `{` that another `{` follows is written
/// `{{ '{' }}`, and `a{{b` becomes `a{{ '{' }}{b`, which renders `a{{b`. No two literal braces are then adjacent,
/// so no placeholder is left in the data; the escape holds no `"`, `\`, `;`, `=`, `:` or `@`, so it survives being
/// split or quoted as JSON. Placeholders an importer writes on purpose (`{{ env.TOKEN }}`, a Postman `{{var}}` as
/// `{{ var }}`) are joined to escaped text with ``joined(_:)``, which also escapes a literal `{` right before them.
///
/// The one rule for every writer of suites: the importers and `apitest fuzz`'s findings (`FindingWriter`).
package enum TemplateLiteral {
    /// A piece of suite text: data to escape, or a placeholder written on purpose.
    package enum Piece: Equatable {
        /// Text from the source, written so that it renders as it is.
        case literal(String)
        /// A placeholder the importer means (`{{ env.TOKEN }}`), written as it is.
        case placeholder(String)
    }

    /// The escape of one `{`: a placeholder whose expression is the string `{`.
    package static let brace = "{{ '{' }}"

    /// `text` written so that a suite renders it as it is: each `{` followed by another `{` (or, when
    /// `beforePlaceholder`, ending the text that a placeholder follows) is written ``brace``.
    package static func escaped(_ text: String, beforePlaceholder: Bool = false) -> String {
        guard text.contains("{{") || (beforePlaceholder && text.hasSuffix("{")) else { return text }
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let nextIsBrace = index + 1 < scalars.count ? scalars[index + 1] == "{" : beforePlaceholder
            if scalar == "{" && nextIsBrace {
                result += brace
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text ``escaped(_:beforePlaceholder:)`` was given: each ``brace`` read back as `{` (in escaped text
    /// every `{{` starts one).
    package static func unescaped(_ text: String) -> String {
        text.contains(brace) ? text.replacingOccurrences(of: brace, with: "{") : text
    }

    /// The suite text of `pieces`: literals escaped, placeholders as they are.
    package static func joined(_ pieces: [Piece]) -> String {
        var result = ""
        var literal = "" // Adjacent literals are one text, escaped together.
        for piece in pieces {
            switch piece {
            case .literal(let text):
                literal += text
            case .placeholder(let text):
                result += escaped(literal, beforePlaceholder: true) + text
                literal = ""
            }
        }
        return result + escaped(literal)
    }

    /// `value` with every string escaped (member names stay: the suite format reads them as written).
    package static func escaped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(escaped(text))
        case .array(let items):
            return .array(items.map { escaped($0) })
        case .object(let object):
            return .object(JSONObject(object.map { (key: $0.key, value: escaped($0.value)) }))
        default:
            return value
        }
    }
}

import APITestJSON
import APITestJSONSchema

/// A place in a file of an OpenAPI document: the file's absolute path and a JSON pointer into it.
struct SpecLocation: Sendable, Hashable {
    /// The file's absolute path.
    var path: String
    /// The pointer's reference tokens, unescaped.
    var pointer: [String]

    /// The place of a member or element below this one.
    func appending(_ tokens: String...) -> SpecLocation {
        SpecLocation(path: path, pointer: pointer + tokens)
    }

    /// `#/a/b` (the pointer as a URI fragment, escaped for JSON Pointer, not percent-encoded).
    var fragment: String {
        "#" + JSONPointer.text(pointer)
    }
}

/// A value of an OpenAPI document and where it is.
struct SpecNode {
    /// The value.
    var value: JSONValue
    /// Where it is.
    var location: SpecLocation

    /// The member `key` of an object, with its place; nil for a missing member or a value that is not an object.
    func member(_ key: String) -> SpecNode? {
        guard case .object(let object) = value, let child = object[key] else { return nil }
        return SpecNode(value: child, location: location.appending(key))
    }

    /// The members of an object, with their places; empty for other values.
    var members: [(key: String, node: SpecNode)] {
        guard case .object(let object) = value else { return [] }
        return object.map { (key: $0.key, node: SpecNode(value: $0.value, location: location.appending($0.key))) }
    }

    /// The elements of an array, with their places; empty for other values.
    var elements: [SpecNode] {
        guard case .array(let items) = value else { return [] }
        return items.enumerated().map { SpecNode(value: $1, location: location.appending(String($0))) }
    }
}

/// JSON Pointer (RFC 6901) text read back into reference tokens, as `$ref` fragments write them (without percent
/// decoding); writing pointers and following them is ``JSONPointer``'s (APITestJSONSchema).
enum JSONPointerText {
    /// The tokens of pointer text (`/a/b~1c`); nil when the text is neither empty nor starts with `/`.
    static func tokens(_ text: String) -> [String]? {
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(unescape)
    }

    /// One token unescaped (`~1` → `/`, then `~0` → `~`).
    static func unescape(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var escaping = false
        for character in token {
            if escaping {
                switch character {
                case "0": result.append("~")
                case "1": result.append("/")
                default: result += "~" + String(character)
                }
                escaping = false
            } else if character == "~" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("~") }
        return result
    }
}

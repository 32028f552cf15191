import APITestJSON
import APITestSuiteWriting

/// The checks an imported WebSocket conversation makes of a recorded received message, as a replay can hold them:
/// a JSON message (an object or a list) by its values, each at its JSONPath, equal to the recorded one, except values
/// that look volatile (their member's name says an id, a time, a token, a nonce or a sequence number; or the value is
/// a date, a UUID, a long hex or token-like string, an epoch-sized number), which are checked by their type only; a
/// list of scalars as a whole; other text exactly. Nested values are followed three levels deep, and at most
/// ``limit`` values are checked (the count of the rest is said).
struct HARMessageChecks {
    /// The most values checked in one message.
    static let limit = 32
    /// How deep members are followed (deeper objects are checked by type).
    static let depth = 3
    /// The longest text checked exactly; a longer one is checked by its size.
    static let longestText = 16 * 1024

    /// `json`: JSONPath → check, in document order.
    private(set) var json: [(path: String, check: JSONValue)] = []
    /// The paths of values checked by type only because they look volatile.
    private(set) var volatilePaths: [String] = []
    /// The values left unchecked past ``limit``.
    private(set) var unchecked = 0

    /// The checks of the JSON value `value` (an object or a list).
    init(json value: JSONValue) {
        walk(value, path: "$", name: nil, level: 0)
    }

    // MARK: - Walking

    /// Adds the checks of `value` at `path` (the member's `name`, when it is one).
    private mutating func walk(_ value: JSONValue, path: String, name: String?, level: Int) {
        switch value {
        case .object(let object) where !object.isEmpty:
            guard level < Self.depth else { return add(path, ["type": "object"]) }
            for member in object.members {
                walk(member.value, path: path + Self.segment(member.key), name: member.key, level: level + 1)
            }
        case .array(let items) where !items.isEmpty:
            let scalars = items.allSatisfy { !$0.isContainer }
            if scalars, items.count <= 16, !items.contains(where: { Self.looksVolatile($0, name: name) }) {
                add(path, ["equals": TemplateLiteral.escaped(value)])
            } else {
                add(path, ["type": "array"])
            }
        default:
            if Self.looksVolatile(value, name: name) {
                add(path, ["type": .string(Self.typeName(value))])
                if json.last?.path == path { volatilePaths.append(path) }
            } else {
                add(path, ["equals": TemplateLiteral.escaped(value)])
            }
        }
    }

    /// Adds a check, or counts it as unchecked past the limit.
    private mutating func add(_ path: String, _ check: JSONValue) {
        guard json.count < Self.limit else {
            unchecked += 1
            return
        }
        json.append((path, check))
    }

    // MARK: - JSONPath

    /// The segment selecting member `name`: `.name` for an identifier, `['...']` otherwise (RFC 9535 escapes).
    static func segment(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
        }
        if let first = scalars.first, isLetter(first),
            scalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) })
        {
            return "." + name
        }
        var quoted = "['"
        for scalar in scalars {
            switch scalar {
            case "'": quoted += "\\'"
            case "\\": quoted += "\\\\"
            case "\u{8}": quoted += "\\b"
            case "\u{C}": quoted += "\\f"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 {
                    let digits = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "']"
    }

    // MARK: - Volatile values

    /// Words of a member's name that say its value changes from one run to the next.
    static let volatileWords: Set<String> = [
        "id", "ids", "uuid", "guid", "time", "timestamp", "ts", "date", "nonce", "token", "seq", "sequence",
        "expires", "expiry", "exp", "iat", "nbf", "now", "random", "session", "sid", "etag", "signature", "sig",
        "created", "updated", "modified", "at",
    ]

    /// Whether `value` (of member `name`) looks like it changes from one run to the next.
    static func looksVolatile(_ value: JSONValue, name: String?) -> Bool {
        if let name, !words(of: name).isDisjoint(with: volatileWords) { return true }
        switch value {
        case .integer(let number): return number.magnitude >= 1_000_000_000
        case .double(let number): return number.magnitude >= 1_000_000_000
        case .number: return true // Beyond a double: an id or a timestamp in nanoseconds.
        case .string(let text): return looksVolatile(text)
        default: return false
        }
    }

    /// Whether a text is a date or time, a UUID, a long hex string or a token (long, no spaces, letters and digits).
    static func looksVolatile(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        if isDate(scalars) { return true }
        let hex = scalars.filter { $0 != "-" }
        if hex.count >= 16, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) { return true }
        guard scalars.count >= 20, !scalars.contains(where: { $0 == " " || $0.value < 0x21 || $0.value > 0x7E })
        else { return false }
        return scalars.contains { ("0"..."9").contains($0) } && scalars.contains { ("a"..."z").contains($0) }
            || scalars.contains { ("0"..."9").contains($0) } && scalars.contains { ("A"..."Z").contains($0) }
    }

    /// Whether a text starts as an ISO 8601 date (`2024-05-01`) or is a time of day (`12:30:05`).
    private static func isDate(_ scalars: [Unicode.Scalar]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= scalars.count && scalars[range].allSatisfy { ("0"..."9").contains($0) }
        }
        if digits(0..<4), scalars.count >= 10, scalars[4] == "-", digits(5..<7), scalars[7] == "-", digits(8..<10) {
            return true
        }
        return digits(0..<2) && scalars.count >= 8 && scalars[2] == ":" && digits(3..<5) && scalars[5] == ":"
            && digits(6..<8)
    }

    /// The words of a name: split at `_`, `-`, `.`, spaces and lower-to-upper case changes, lower case.
    static func words(of name: String) -> Set<String> {
        var words: Set<String> = []
        var current = ""
        var previousIsLower = false
        for character in name {
            if !character.isLetter && !character.isNumber {
                if !current.isEmpty { words.insert(current) }
                current = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase && previousIsLower {
                words.insert(current)
                current = ""
            }
            current += character.lowercased()
            previousIsLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.insert(current) }
        return words
    }

    /// The suite format's type name of a scalar.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .double, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// Whether the value is a list or an object.
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

package import APITestJSON
package import APITestSupport
import APITestYAML
import Foundation

// MARK: - ExpressionFunctions

/// The functions of expressions (`{{ sha256(body) }}`, `when: 'length(ids) > 0'`): their names, how many arguments
/// each takes, what kind of value it gives, and what it computes. Names shared with `filters:` (`base64Encode`,
/// `toInt`, `trim`, `urlEncode`, ...) do what the filter does.
package enum ExpressionFunctions {
    /// The kind of a value, as far as it is known without evaluating (for load-time checks).
    package enum Kind: String, Sendable, Hashable {
        case string
        case number
        case bool
        case list
        case object
        case null
        case unknown
    }

    /// Why a function could not compute its value, said in terms of its arguments (quoted whole: where a step's
    /// result is sealed, each is masked and then cut).
    package struct Problem: Error, Sendable, Hashable {
        /// The sentence, its values quoted.
        package var text: MessageText
        init(_ text: MessageText) { self.text = text }
        /// The sentence, its values cut, nothing masked.
        package var message: String { text.description }
    }

    /// A function: how many arguments it takes, the kind of its value, what it computes.
    package struct Function: Sendable {
        /// The argument counts it accepts.
        package var arity: ClosedRange<Int>
        /// The kind of its value.
        package var kind: Kind
        /// One line for the reference: the arguments and what it gives.
        package var summary: String
        /// Computes the value from the evaluated arguments.
        package var compute: @Sendable ([JSONValue]) throws(Problem) -> JSONValue

        /// `1 argument`, `1 or 2 arguments`, `no arguments`.
        var arityText: String {
            func count(_ number: Int) -> String { number == 1 ? "1 argument" : "\(number) arguments" }
            if arity.lowerBound == arity.upperBound {
                return arity.lowerBound == 0 ? "no arguments" : count(arity.lowerBound)
            }
            return "\(arity.lowerBound) to \(count(arity.upperBound))".replacingOccurrences(
                of: " to 1 argument", with: " or 1 argument")
        }
    }

    /// The kind an expression's value has whatever the variables hold; `.unknown` when it depends on them.
    static func staticKind(of expression: Expression) -> Kind {
        switch expression {
        case .literal(let value):
            switch value {
            case .null: return .null
            case .bool: return .bool
            case .string: return .string
            case .integer, .double, .number: return .number
            case .array: return .list
            case .object: return .object
            }
        case .variable: return .unknown
        case .list: return .list
        case .call(let name, _, _): return table[name]?.kind ?? .unknown
        case .not, .exists, .matches: return .bool
        case .binary(let op, let left, let right, _):
            if op != .plus { return .bool }
            let kinds = (staticKind(of: left), staticKind(of: right))
            if kinds.0 == .number && kinds.1 == .number { return .number }
            if kinds.0 == .list && kinds.1 == .list { return .list }
            if kinds.0 == .string || kinds.1 == .string { return .string }
            return .unknown
        }
    }

    // MARK: - The table

    /// The functions that make a value rather than transform their argument (not filters).
    package static let generators: Set<String> = ["uuid", "now", "randomInt", "randomString"]

    /// Every function by name.
    package static let table: [String: Function] = {
        var table: [String: Function] = [:]
        func add(
            _ name: String, _ arity: ClosedRange<Int>, _ kind: Kind, _ summary: String,
            _ compute: @escaping @Sendable ([JSONValue]) throws(Problem) -> JSONValue
        ) {
            table[name] = Function(arity: arity, kind: kind, summary: summary, compute: compute)
        }
        // Encodings.
        add("base64Encode", 1...1, .string, "the UTF-8 text in base64") { arguments throws(Problem) in
            .string(Data(try text(arguments[0], "base64Encode").utf8).base64EncodedString())
        }
        add("base64Decode", 1...1, .string, "base64 (standard or URL-safe, padding optional) decoded to UTF-8 text") {
            arguments throws(Problem) in
            .string(try base64Decode(try text(arguments[0], "base64Decode")))
        }
        add("urlEncode", 1...1, .string, "every byte but RFC 3986's unreserved characters percent-encoded") {
            arguments throws(Problem) in
            .string(urlEncode(try text(arguments[0], "urlEncode")))
        }
        add("urlDecode", 1...1, .string, "percent-encoding undone (`+` stays `+`)") { arguments throws(Problem) in
            let value = try text(arguments[0], "urlDecode")
            guard let decoded = value.removingPercentEncoding else {
                throw Problem("urlDecode: '\(value)' is not valid percent-encoded UTF-8")
            }
            return .string(decoded)
        }
        add("hex", 1...1, .string, "the UTF-8 bytes in lower-case hex") { arguments throws(Problem) in
            .string(hex(Array(try text(arguments[0], "hex").utf8)))
        }
        add("jsonEncode", 1...1, .string, "the value as compact JSON text") { arguments in
            .string(JSONWriter.string(arguments[0]))
        }
        // Digests.
        for (name, algorithm) in [("sha256", "SHA256"), ("sha1", "SHA1"), ("md5", "MD5")] {
            add(name, 1...1, .string, "the \(algorithm) digest of the UTF-8 text, lower-case hex") {
                arguments throws(Problem) in
                .string(hex(try Digests.digest(algorithm, Array(try text(arguments[0], name).utf8))))
            }
        }
        add(
            "hmacSHA256", 2...3, .string,
            "HMAC-SHA256 of the message (2nd) with the key (1st), hex; a 3rd argument \"base64\" gives base64"
        ) { arguments throws(Problem) in
            let key = Array(try text(arguments[0], "hmacSHA256").utf8)
            let message = Array(try text(arguments[1], "hmacSHA256").utf8)
            let mac = try Digests.hmacSHA256(key: key, message: message)
            guard arguments.count == 3 else { return .string(hex(mac)) }
            switch try text(arguments[2], "hmacSHA256") {
            case "hex": return .string(hex(mac))
            case "base64": return .string(Data(mac).base64EncodedString())
            case let other: throw Problem("hmacSHA256: the encoding is \"hex\" or \"base64\", not \"\(other)\"")
            }
        }
        // Conversions.
        add("toInt", 1...1, .number, "a number or numeric string as an integer (toward zero)") {
            arguments throws(Problem) in try toInt(arguments[0])
        }
        add("toFloat", 1...1, .number, "a number or numeric string as a floating-point number") {
            arguments throws(Problem) in
            switch arguments[0] {
            case .integer, .double, .number: return .double(arguments[0].doubleValue ?? 0)
            case .string(let value):
                guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                    throw Problem("toFloat: \(describe(arguments[0])) is not a number")
                }
                return .double(number)
            default: throw Problem("toFloat: \(describe(arguments[0])) is not a number")
            }
        }
        add("toString", 1...1, .string, "the value as text (strings as they are, others as JSON)") { arguments in
            .string(TemplateContext.text(of: arguments[0]))
        }
        // Text.
        for name in ["lower", "lowercase"] {
            add(name, 1...1, .string, "the text in lower case") { arguments throws(Problem) in
                .string(try text(arguments[0], name).lowercased())
            }
        }
        for name in ["upper", "uppercase"] {
            add(name, 1...1, .string, "the text in upper case") { arguments throws(Problem) in
                .string(try text(arguments[0], name).uppercased())
            }
        }
        add("trim", 1...1, .string, "the text without leading and trailing white space") { arguments throws(Problem) in
            .string(try text(arguments[0], "trim").trimmingCharacters(in: .whitespacesAndNewlines))
        }
        add(
            "substring", 2...3, .string,
            "the characters from a 0-based start (2nd), up to a length (3rd) or to the end"
        ) { arguments throws(Problem) in
            let characters = Array(try text(arguments[0], "substring"))
            let start = try integer(arguments[1], "substring")
            // Server values reach here: no arithmetic on them may overflow (`start` may be Int.min).
            let (rest, overflow) = characters.count.subtractingReportingOverflow(start)
            let length = arguments.count == 3 ? try integer(arguments[2], "substring") : rest
            guard (0...characters.count).contains(start), (0...rest).contains(length) else {
                let lengthText = arguments.count == 3 || !overflow ? " and length \(length) are" : " is"
                throw Problem(
                    "substring: start \(start)\(lengthText) outside a text of \(characters.count) characters")
            }
            return .string(String(characters[start..<(start + length)]))
        }
        add(
            "replace", 3...3, .string,
            "every match of a regular expression (2nd) replaced by the 3rd argument (`$1` is a group), as the filter"
        ) { arguments throws(Problem) in
            let value = try text(arguments[0], "replace")
            let pattern = try text(arguments[1], "replace")
            let replacement = try text(arguments[2], "replace")
            let regex: RegularExpression
            do {
                regex = try RegularExpression(pattern)
            } catch {
                throw Problem("replace: '\(pattern)' is not a valid regular expression: \(error)")
            }
            do throws(RegularExpression.ReplaceFailure) {
                return .string(try regex.replacingMatches(in: value, with: replacement, limit: maximumTextBytes))
            } catch {
                throw Problem("replace: \(error.sentence)")
            }
        }
        add("length", 1...1, .number, "the characters of a text, the items of a list, the members of an object") {
            arguments throws(Problem) in try length(arguments[0], "length")
        }
        add("count", 1...1, .number, "the same as length, as the filter") { arguments throws(Problem) in
            try length(arguments[0], "count")
        }
        // Lists, as the filters of the same names.
        add("first", 1...1, .unknown, "the first item of a list") { arguments throws(Problem) in
            guard case .array(let items) = arguments[0], let item = items.first else {
                throw Problem("first: \(describe(arguments[0])) is not a list with an item")
            }
            return item
        }
        add("last", 1...1, .unknown, "the last item of a list") { arguments throws(Problem) in
            guard case .array(let items) = arguments[0], let item = items.last else {
                throw Problem("last: \(describe(arguments[0])) is not a list with an item")
            }
            return item
        }
        add("nth", 2...2, .unknown, "the item at a 0-based index (negative counts from the end)") {
            arguments throws(Problem) in
            guard case .array(let items) = arguments[0] else {
                throw Problem("nth: \(describe(arguments[0])) is not a list")
            }
            let index = try integer(arguments[1], "nth")
            let position = index < 0 ? items.count + index : index
            guard items.indices.contains(position) else {
                throw Problem("nth: index \(index) is outside a list of \(items.count) items")
            }
            return items[position]
        }
        add("jsonpath", 2...2, .unknown, "the first match of a JSONPath (2nd) in a value or a JSON text (1st)") {
            arguments throws(Problem) in
            let path = try text(arguments[1], "jsonpath")
            guard let compiled = try? JSONPath(path) else {
                throw Problem("jsonpath: '\(path)' is not a valid JSONPath")
            }
            var document = arguments[0]
            if case .string(let json) = document, let parsed = try? JSONParser.parse(json) { document = parsed }
            guard let match = compiled.query(document).first else {
                throw Problem("jsonpath: '\(path)' matched nothing in \(describe(arguments[0]))")
            }
            return match
        }
        // The value or a fallback: evaluated lazily (`Expression+Evaluation.swift`), an undefined first argument
        // included.
        add("default", 2...2, .unknown, "the first argument unless it is undefined or null, else the second") {
            arguments in arguments[0] == .null ? arguments[1] : arguments[0]
        }
        // Time and randomness.
        add("uuid", 0...0, .string, "a random UUID, lower case") { _ in .string(UUID().uuidString.lowercased()) }
        add(
            "now", 0...1, .unknown,
            "the current time in UTC: ISO 8601 (`2026-11-24T09:30:00Z`); with \"unix\" or \"unixMs\" a number; "
                + "else a strftime format (\"%Y-%m-%d\")"
        ) { arguments throws(Problem) in
            let format: String? = arguments.isEmpty ? nil : try text(arguments[0], "now")
            return try DateFunctions.now(format: format)
        }
        add(
            "dateAdd", 2...2, .string,
            "an ISO 8601 date or date-time (1st) plus an ISO 8601 duration (2nd: \"P1D\", \"PT90M\", \"-P1M\")"
        ) { arguments throws(Problem) in
            .string(try DateFunctions.add(try text(arguments[1], "dateAdd"), to: try text(arguments[0], "dateAdd")))
        }
        add("randomInt", 2...2, .number, "a random integer from the 1st to the 2nd argument, both included") {
            arguments throws(Problem) in
            let low = try integer(arguments[0], "randomInt")
            let high = try integer(arguments[1], "randomInt")
            guard low <= high else { throw Problem("randomInt: \(low) is greater than \(high)") }
            return .integer(Int64(Int.random(in: low...high)))
        }
        add("randomString", 1...1, .string, "that many random letters and digits (at most 10,000)") {
            arguments throws(Problem) in
            let count = try integer(arguments[0], "randomString")
            guard (0...10_000).contains(count) else {
                throw Problem("randomString: the length is 0 to 10000, not \(count)")
            }
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return .string(String((0..<count).map { _ in alphabet.randomElement()! }))
        }
        return table
    }()

    // MARK: - Limits

    /// The longest text a function or `+` may make (64 MiB, the default largest response): a value that grows
    /// with what a server sends (`replace` of every match, texts joined) is an error beyond it, never unbounded.
    package static let maximumTextBytes = 64 << 20

    /// The most items a list joined with `+` may have.
    package static let maximumItems = 1_000_000

    // MARK: - Helpers

    /// The characters of a text, the items of a list, the members of an object.
    static func length(_ value: JSONValue, _ function: String) throws(Problem) -> JSONValue {
        switch value {
        case .string(let text): return .integer(Int64(text.count))
        case .array(let items): return .integer(Int64(items.count))
        case .object(let object): return .integer(Int64(object.count))
        default: throw Problem("\(function): \(describe(value)) is not a text, a list or an object")
        }
    }

    /// A value as functions on text take it: a string, or a number or boolean as its text.
    static func text(_ value: JSONValue, _ function: String) throws(Problem) -> String {
        switch value {
        case .string(let text): return text
        case .integer, .double, .number, .bool: return TemplateContext.text(of: value)
        default: throw Problem("\(function): \(describe(value)) is not a text")
        }
    }

    /// A value as an integer argument.
    static func integer(_ value: JSONValue, _ function: String) throws(Problem) -> Int {
        guard case .integer(let number) = try toInt(value), let result = Int(exactly: number) else {
            throw Problem("\(function): \(describe(value)) is not an integer")
        }
        return result
    }

    /// `toInt` of `value`: the whole part (toward zero), `.integer` when it fits 64 bits, else exact (`.number`).
    package static func toInt(_ value: JSONValue) throws(Problem) -> JSONValue {
        switch value {
        case .integer: return value
        case .double(let number):
            if let exact = JSONNumber(number) { return try toInt(.number(exact)) }
        case .number(let number):
            let whole = number.integerPart
            return whole.int64Value.map(JSONValue.integer) ?? .number(whole)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let integer = Int64(trimmed) { return .integer(integer) }
            if let value = JSONValue(numberText: trimmed) { return try toInt(value) }
        default: break
        }
        throw Problem("toInt: \(describe(value)) is not a number")
    }

    /// The most characters of a value a message shows.
    static let describedLimit = 80

    /// A value as a message quotes it: JSON, whole until sealing masks it and cuts it to ``describedLimit``
    /// characters.
    static func describe(_ value: JSONValue) -> MessageText {
        "\(quoting: JSONWriter.string(value), limit: describedLimit)"
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every byte but RFC 3986's unreserved ones percent-encoded (upper-case hex), as the `urlEncode` filter.
    static func urlEncode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 (standard or URL-safe, padding optional) decoded to UTF-8, as the `base64Decode` filter: white
    /// space around it is ignored; anything else that is not canonical base64 (RFC 4648 §3.5: a character outside
    /// the alphabet, padding that is not at the end or not of the right length, a last group of one character, or
    /// unused bits that are not zero) is an error, never bytes made up (`====` is not an empty text plus a NUL).
    package static func base64Decode(_ text: String) throws(Problem) -> String {
        let trimmed = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard let data = Base64.decode(trimmed) else {
            throw Problem("base64Decode: \(describe(.string(text))) is not base64")
        }
        guard let decoded = String(validating: data, as: UTF8.self) else {
            throw Problem("base64Decode: the decoded bytes are not UTF-8 text")
        }
        return decoded
    }
}

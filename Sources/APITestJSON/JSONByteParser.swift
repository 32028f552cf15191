/// The parsing engine behind ``JSONParser``: an iterative (non-recursive) parser over a UTF-8 buffer.
///
/// Containers being built live on an explicit stack, so deep nesting costs heap, never call stack.
struct JSONByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Whether an error carries the JSON Pointer of where it is (``pointer(at:)``); off for the reader that
    /// computes one.
    var locatesPointers = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// A container under construction. Its finished children wait on the parser's shared `values` stack (and, for
    /// objects, their keys on `keys`) from `valueStart` (`keyStart`) on, so building a container costs one
    /// exactly-sized allocation when it closes instead of a growing array per container.
    private struct Frame {
        var isObject: Bool
        var valueStart: Int
        var keyStart: Int
    }

    // MARK: - Document

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        if position >= bytes.count { throw error("expected a JSON value, found end of input", at: position) }
        var stack: [Frame] = []
        var values: [JSONValue] = []
        var keys: [String] = []
        var value: JSONValue
        parseValue: while true {
            // MARK: Value start
            guard position < bytes.count else { throw error("expected a value, found end of input", at: position) }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count, at: position)
                position += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    position += 1
                    value = .object(JSONObject())
                } else {
                    stack.append(Frame(isObject: true, valueStart: values.count, keyStart: keys.count))
                    keys.append(try parseMemberKey(after: "'{'"))
                    continue parseValue
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count, at: position)
                position += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false, valueStart: values.count, keyStart: keys.count))
                    continue parseValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "]") where stack.last.map({ !$0.isObject }) ?? false:
                throw error("trailing comma before ']'", at: position)
            default:
                throw error("expected a value, found \(describe(at: position))", at: position)
            }

            // MARK: Value complete: attach it to the enclosing containers
            while true {
                let top = stack.count - 1
                guard top >= 0 else {
                    skipWhitespace()
                    if position < bytes.count {
                        throw error("unexpected \(describe(at: position)) after the JSON value", at: position)
                    }
                    return value
                }
                skipWhitespace()
                values.append(value)
                if stack[top].isObject {
                    switch peek {
                    case UInt8(ascii: ","):
                        position += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "}") { throw error("trailing comma before '}'", at: position) }
                        keys.append(try parseMemberKey(after: "','"))
                        continue parseValue
                    case UInt8(ascii: "}"):
                        position += 1
                        let frame = stack.removeLast()
                        value = .object(
                            JSONObject(
                                parsedMembers: Self.takeMembers(
                                    keys: &keys, from: frame.keyStart, values: &values, from: frame.valueStart)))
                    default:
                        throw error(
                            "expected ',' or '}' after object member, found \(describe(at: position))",
                            at: position)
                    }
                } else {
                    switch peek {
                    case UInt8(ascii: ","):
                        position += 1
                        skipWhitespace()
                        continue parseValue
                    case UInt8(ascii: "]"):
                        position += 1
                        let frame = stack.removeLast()
                        value = .array(Self.takeElements(&values, from: frame.valueStart))
                    default:
                        throw error(
                            "expected ',' or ']' after array element, found \(describe(at: position))",
                            at: position)
                    }
                }
            }
        }
    }

    // MARK: - Closing containers

    /// Moves `values[start...]` into a new, exactly-sized array and shortens `values`; the slots left behind hold
    /// `.null`, which needs no release, so nothing is retained or released twice.
    private static func takeElements(_ values: inout [JSONValue], from start: Int) -> [JSONValue] {
        if start == 0 {
            // The outermost open container (typically the document's big array): hand over the whole buffer
            // instead of copying it, so a large array is never held twice.
            var all: [JSONValue] = []
            swap(&all, &values)
            return all
        }
        let count = values.count - start
        let elements = values.withUnsafeMutableBufferPointer { source in
            [JSONValue](unsafeUninitializedCapacity: count) { target, initialized in
                let from = source.baseAddress! + start
                for index in 0..<count {
                    (target.baseAddress! + index).initialize(to: (from + index).move())
                    (from + index).initialize(to: .null)
                }
                initialized = count
            }
        }
        values.removeLast(count)
        return elements
    }

    /// Moves the pending keys and values of the object being closed into members, like ``takeElements(_:from:)``.
    private static func takeMembers(
        keys: inout [String], from keyStart: Int, values: inout [JSONValue], from valueStart: Int
    ) -> [JSONObject.Member] {
        let count = values.count - valueStart
        let members = keys.withUnsafeMutableBufferPointer { keySource in
            values.withUnsafeMutableBufferPointer { valueSource in
                [JSONObject.Member](unsafeUninitializedCapacity: count) { target, initialized in
                    let keyFrom = keySource.baseAddress! + keyStart
                    let valueFrom = valueSource.baseAddress! + valueStart
                    for index in 0..<count {
                        (target.baseAddress! + index).initialize(
                            to: (key: (keyFrom + index).move(), value: (valueFrom + index).move()))
                        (keyFrom + index).initialize(to: "")
                        (valueFrom + index).initialize(to: .null)
                    }
                    initialized = count
                }
            }
        }
        keys.removeLast(count)
        values.removeLast(count)
        return members
    }

    /// Parses `"key"` then `:` and the whitespace after it; `position` is at the key's opening quote (or not).
    mutating func parseMemberKey(after previous: String) throws(JSONParseError) -> String {
        try scanMemberKey(after: previous, decoding: true) ?? ""
    }

    /// ``parseMemberKey(after:)``, with the key's text only when `decoding` (see ``scanString(decoding:)``).
    mutating func scanMemberKey(after previous: String, decoding: Bool) throws(JSONParseError) -> String? {
        guard peek == UInt8(ascii: "\"") else {
            throw error("expected a string key after \(previous), found \(describe(at: position))", at: position)
        }
        let key = try scanString(decoding: decoding)
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            throw error("expected ':' after object key, found \(describe(at: position))", at: position)
        }
        position += 1
        skipWhitespace()
        return key
    }

    func checkDepth(_ depth: Int, at offset: Int) throws(JSONParseError) {
        if depth >= JSONParser.maximumDepth {
            throw error("nesting depth exceeds the limit of \(JSONParser.maximumDepth)", at: offset)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected -> Bool in
            guard start + count <= bytes.count else { return false }
            for i in 0..<count where bytes[start + i] != expected[i] { return false }
            return true
        }
        guard matches else {
            throw error("invalid literal, expected '\(literal)'", at: start)
        }
        position += count
    }

    // MARK: - Bytes

    var peek: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: - Errors

    /// An error at `offset`, with its line and column computed from the bytes before it.
    func error(_ message: String, at offset: Int) -> JSONParseError {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                column += 1
            }
            index += 1
        }
        return JSONParseError(
            message: message, offset: offset, line: line, column: column,
            pointer: locatesPointers ? pointer(at: offset) : [])
    }

    /// A readable name for the byte (or character) at `offset`: `'x'`, `end of input`, `U+000A`, `'é' (U+00E9)`.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        switch byte {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "' '"
        case 0x00..<0x20, 0x7F: return "U+" + hex4(UInt32(byte))
        default:
            var iterator = bytes[offset...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                return "'\(Character(scalar))' (U+\(hex4(scalar.value)))"
            }
            return "invalid UTF-8 byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

import APITestJSON

/// A ``JSONTape`` with its text's bytes at hand, as ``SchemaQuickCheck`` reads it: member names and strings as
/// written are compared over the bytes in place, and plain integers read from them, instead of being decoded into
/// a `String` or a ``JSONValue`` first (the quick check runs for every response a contract or a `schema` check
/// reads).
///
/// Made only inside the text's `withJSONBytes` (``JSONSchema/validate(_:maximumErrors:)``), for the one check.
struct TapeText: QuickCheckDocument {
    /// The tape.
    let tape: JSONTape
    /// The bytes of `tape`'s text, valid while this value is used.
    let bytes: UnsafeBufferPointer<UInt8>

    // MARK: - Values in place

    /// The bytes of a string or member-name node between its quotes, when they are ASCII without an escape (then
    /// each byte is one code point of the decoded string); nil otherwise.
    func plainText(of node: Int) -> UnsafeBufferPointer<UInt8>? {
        let start = tape.textOffset(node) + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { return UnsafeBufferPointer(rebasing: bytes[start..<end]) }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 { return nil }
            end += 1
        }
        return nil
    }

    func forEachWrittenMember(of node: Int, _ body: (_ key: Int, _ value: Int) -> Bool) -> Bool {
        guard tape.kind(node) == .object else { return false }
        let stop = tape.end(node)
        var key = node + 1
        while key < stop {
            guard body(key, key + 1) else { return true }
            key = tape.end(key + 1)
        }
        return true
    }

    /// The integer a number node writes as `-?[0-9]{1,18}` (what ``JSONParser`` reads as `.integer`), read from its
    /// bytes; nil for any other number.
    func plainInteger(of node: Int) -> Int64? {
        var position = tape.textOffset(node)
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var value: Int64 = 0
        while position < bytes.count, position - start < 19 {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int64(digit)
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return nil
            default:
                break
            }
        }
        return negative ? -value : value
    }

    // MARK: - QuickCheckDocument

    func kind(of node: Int) -> JSONTape.Kind {
        tape.kind(node)
    }

    func string(of node: Int) -> String {
        guard let text = plainText(of: node) else { return tape.string(node) }
        return String(decoding: text, as: UTF8.self)
    }

    func number(of node: Int) -> JSONValue {
        plainInteger(of: node).map(JSONValue.integer) ?? tape.value(node)
    }

    // MARK: - SchemaDocument

    func shape(of node: Int) -> SchemaShape {
        switch tape.kind(node) {
        case .array: .array
        case .object: .object
        case .number: .scalar(number(of: node))
        case .string: .scalar(.string(string(of: node)))
        default: .scalar(tape.value(node))
        }
    }

    func elementCount(of node: Int) -> Int {
        tape.elementCount(node)
    }

    func forEachElement(of node: Int, _ body: (Int) -> Bool) {
        tape.forEachElement(node, body)
    }

    func memberCount(of node: Int) -> Int {
        tape.memberCount(node)
    }

    func forEachMember(of node: Int, _ body: (String, Int, Int) -> Bool) {
        tape.forEachMember(node, body)
    }

    func member(_ name: String, of node: Int) -> Int? {
        tape.member(named: name, of: node)
    }

    func identity(of node: Int) -> Int? { node }
}

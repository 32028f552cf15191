// MARK: - Tape

extension JSONByteParser {
    /// Validates the document as ``parseDocument()`` does and records it as tape entries instead of building
    /// values: containers get their end when they close, strings and numbers their byte offset. With
    /// `droppingNullMembers`, an object member whose value is `null` is recorded as nothing (its key is taken back).
    mutating func buildTape(into tape: inout JSONTape, droppingNullMembers: Bool = false) throws(JSONParseError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        if position >= bytes.count { throw error("expected a JSON value, found end of input", at: position) }
        // Open containers: their entry index, and whether they are objects.
        var open: [(entry: Int, isObject: Bool)] = []
        parseValue: while true {
            // MARK: Value start
            guard position < bytes.count else { throw error("expected a value, found end of input", at: position) }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try checkDepth(open.count, at: position)
                let entry = tape.append(.object, 0)
                position += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    position += 1
                    tape.close(entry)
                } else {
                    // Room for the usual depths at the first container: growing from one entry cost two allocations.
                    if open.isEmpty { open.reserveCapacity(16) }
                    open.append((entry, true))
                    try appendKey(to: &tape, after: "'{'")
                    continue parseValue
                }
            case UInt8(ascii: "["):
                try checkDepth(open.count, at: position)
                let entry = tape.append(.array, 0)
                position += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    position += 1
                    tape.close(entry)
                } else {
                    if open.isEmpty { open.reserveCapacity(16) }
                    open.append((entry, false))
                    continue parseValue
                }
            case UInt8(ascii: "\""):
                tape.append(.string, position)
                _ = try scanString(decoding: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                tape.append(.number, position)
                _ = try parseNumber(validatingOnly: true)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                tape.append(.true, 0)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                tape.append(.false, 0)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                if droppingNullMembers && open.last?.isObject == true {
                    tape.removeLast() // the member's key
                } else {
                    tape.append(.null, 0)
                }
            case UInt8(ascii: "]") where open.last.map({ !$0.isObject }) ?? false:
                throw error("trailing comma before ']'", at: position)
            default:
                throw error("expected a value, found \(describe(at: position))", at: position)
            }

            // MARK: Value complete: continue or close the enclosing containers
            while let top = open.last {
                skipWhitespace()
                if top.isObject {
                    switch peek {
                    case UInt8(ascii: ","):
                        position += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "}") { throw error("trailing comma before '}'", at: position) }
                        try appendKey(to: &tape, after: "','")
                        continue parseValue
                    case UInt8(ascii: "}"):
                        position += 1
                        tape.close(open.removeLast().entry)
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
                        tape.close(open.removeLast().entry)
                    default:
                        throw error(
                            "expected ',' or ']' after array element, found \(describe(at: position))",
                            at: position)
                    }
                }
            }
            skipWhitespace()
            if position < bytes.count {
                throw error("unexpected \(describe(at: position)) after the JSON value", at: position)
            }
            tape.shrink()
            return
        }
    }

    /// Records the key at `position` (validated, then dropped: it is decoded again only when asked for).
    private mutating func appendKey(to tape: inout JSONTape, after previous: String) throws(JSONParseError) {
        let offset = position
        _ = try scanMemberKey(after: previous, decoding: false)
        tape.append(.string, offset)
    }
}

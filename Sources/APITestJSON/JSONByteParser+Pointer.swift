// MARK: - Where an error is, as a JSON Pointer

extension JSONByteParser {
    /// One container open at the error: an object with the key of its member being read (if any), or an array
    /// with the index of its element.
    private struct OpenContainer {
        var isObject: Bool
        var key: String?
        var index = 0
        /// Whether a member's or element's value is being read (between its key, or the array's `[` or `,`, and
        /// the value's end).
        var valueOpen: Bool
    }

    /// The reference tokens (RFC 6901, unescaped) of the value being read at `offset`: the members and elements of
    /// the containers open there, ending with the member or element whose value the error is in (none when the
    /// error is between members, such as a trailing comma: then the pointer names the container). Computed only
    /// for an error, by reading the bytes before it again, so parsing valid JSON costs nothing.
    func pointer(at offset: Int) -> [String] {
        var open: [OpenContainer] = []
        var index = 0
        let end = min(offset, bytes.count)
        /// A value ended (a scalar, a string that is not a key, a container closed).
        func valueEnded() {
            if !open.isEmpty { open[open.count - 1].valueOpen = false }
        }
        scan: while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ":"):
                index += 1
            case UInt8(ascii: "{"):
                open.append(OpenContainer(isObject: true, key: nil, valueOpen: false))
                index += 1
            case UInt8(ascii: "["):
                open.append(OpenContainer(isObject: false, key: nil, valueOpen: true))
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !open.isEmpty { open.removeLast() }
                valueEnded()
                index += 1
            case UInt8(ascii: ","):
                if let last = open.indices.last {
                    if open[last].isObject {
                        open[last].key = nil
                        open[last].valueOpen = false
                    } else {
                        open[last].index += 1
                        open[last].valueOpen = true
                    }
                }
                index += 1
            case UInt8(ascii: "\""):
                // The string's text as the parser reads it; one that does not end before the error is where the
                // error is.
                var reader = JSONByteParser(bytes)
                reader.locatesPointers = false
                reader.position = index
                guard let text = try? reader.parseString(), reader.position <= end else { break scan }
                index = reader.position
                if let last = open.indices.last, open[last].isObject, open[last].key == nil {
                    open[last].key = text
                    open[last].valueOpen = true
                } else {
                    valueEnded()
                }
            default:
                // A number or literal: it ends at a delimiter; one that does not end before the error is where the
                // error is.
                while index < end, !Self.endsScalar(bytes[index]) { index += 1 }
                if index >= end { break scan }
                valueEnded()
            }
        }
        var tokens: [String] = []
        for (position, container) in open.enumerated() {
            guard position < open.count - 1 || container.valueOpen else { break }
            if container.isObject {
                guard let key = container.key else { break }
                tokens.append(key)
            } else {
                tokens.append(String(container.index))
            }
        }
        return tokens
    }

    /// Whether `byte` ends a number or a literal.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"),
            UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["):
            true
        default:
            false
        }
    }
}

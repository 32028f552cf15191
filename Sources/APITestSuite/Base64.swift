// MARK: - Base64

/// A strict base64 decoder (RFC 4648 §4 and §5): the standard or the URL-safe alphabet (not both in one text),
/// padding optional but, when present, complete and only at the end; the unused bits of the last group must be zero
/// (§3.5), so every text decodes to at most one byte string and no garbage decodes at all.
package enum Base64 {
    /// The bytes `text` encodes, or nil when it is not canonical base64.
    package static func decode(_ text: [UInt8]) -> [UInt8]? {
        var body = text[...]
        var padding = 0
        while body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            padding += 1
        }
        guard padding <= 2 else { return nil }
        if padding > 0 {
            // Padded text is whole groups of four.
            guard (body.count + padding) % 4 == 0 else { return nil }
        }
        let remainder = body.count % 4
        guard remainder != 1 else { return nil }
        if padding > 0, remainder == 0 { return nil }
        var alphabet: Alphabet?
        var output: [UInt8] = []
        output.reserveCapacity(body.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var count = 0
        for byte in body {
            guard let (value, kind) = sextet(byte) else { return nil }
            if let kind {
                if let alphabet, alphabet != kind { return nil }
                alphabet = kind
            }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output += [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
                group = 0
                count = 0
            }
        }
        switch count {
        case 2:
            guard group & 0x0F == 0 else { return nil }
            output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            guard group & 0x03 == 0 else { return nil }
            output += [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)]
        default:
            break
        }
        return output
    }

    /// Which alphabet a character belongs to only.
    private enum Alphabet {
        case standard
        case urlSafe
    }

    /// A character's value, and the alphabet it belongs to when it is in only one; nil outside both.
    private static func sextet(_ byte: UInt8) -> (UInt8, Alphabet?)? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return (byte - UInt8(ascii: "A"), nil)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return (byte - UInt8(ascii: "a") + 26, nil)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return (byte - UInt8(ascii: "0") + 52, nil)
        case UInt8(ascii: "+"): return (62, .standard)
        case UInt8(ascii: "/"): return (63, .standard)
        case UInt8(ascii: "-"): return (62, .urlSafe)
        case UInt8(ascii: "_"): return (63, .urlSafe)
        default: return nil
        }
    }
}

// MARK: - BearerChallenge

/// Reads the `Bearer` challenge of a `WWW-Authenticate` field (RFC 7235 §4.1, RFC 6750 §3): a field may hold
/// several challenges (`Basic realm="a", Bearer realm="b", error="invalid_token"`), each a scheme and
/// comma-separated `name=value` parameters, a value a token or a quoted string.
package enum BearerChallenge {
    /// The `error` parameter of the field's `Bearer` challenge; nil when it has none or the field no such challenge.
    package static func error(in field: String) -> String? {
        parameters(in: field)?["error"]
    }

    /// The parameters (names lower-cased) of the field's first `Bearer` challenge, nil when it has none.
    static func parameters(in field: String) -> [String: String]? {
        let bytes = Array(field.utf8)
        var index = 0
        var scheme: String?
        var found: [String: String]?
        var current: [String: String] = [:]

        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }
        func token() -> String {
            let start = index
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        func finishChallenge() {
            if found == nil, scheme?.lowercased() == "bearer" { found = current }
            current = [:]
        }

        while index < bytes.count {
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let word = token()
            guard !word.isEmpty else {
                index += 1 // a byte no grammar allows here: skip it
                continue
            }
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "="), scheme != nil {
                // A parameter of the current challenge (or the `=` padding of a token68).
                index += 1
                skipSpace()
                var value = ""
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    var valueBytes: [UInt8] = []
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                        valueBytes.append(bytes[index])
                        index += 1
                    }
                    index += 1 // the closing quote
                    value = String(decoding: valueBytes, as: UTF8.self)
                } else {
                    value = token()
                }
                let name = word.lowercased()
                if current[name] == nil { current[name] = value }
            } else {
                // A new challenge: its scheme, perhaps followed by a token68.
                if scheme != nil { finishChallenge() }
                scheme = word
                while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
            }
        }
        if scheme != nil { finishChallenge() }
        return found
    }

    /// RFC 7230 `tchar`, plus the `/` of a token68.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~/".utf8).contains(byte)
        }
    }
}

// MARK: - Misread encodings

extension SecretMasker {
    /// The spellings a secret with a non-ASCII character takes when a server reads its UTF-8 bytes as Latin-1 or as
    /// Windows-1252 and echoes the text it got (in UTF-8): `horsebattery-é-staple42` as `horsebattery-Ã©-staple42`.
    /// Python's `bytes.decode("latin-1")` (httpbin, the standard library's HTTP servers) does this to header values.
    /// Empty for an ASCII secret, which both leave as it is.
    static func misreadSpellings(of secret: [UInt8]) -> [[UInt8]] {
        guard secret.contains(where: { $0 >= 0x80 }) else { return [] }
        var latin1 = String.UnicodeScalarView()
        var windows1252 = String.UnicodeScalarView()
        for byte in secret {
            latin1.append(Unicode.Scalar(byte))
            windows1252.append(windows1252Scalar(byte))
        }
        let spellings = [Array(String(latin1).utf8), Array(String(windows1252).utf8)]
        return spellings[0] == spellings[1] ? [spellings[0]] : spellings
    }

    /// The character Windows-1252 gives `byte` (WHATWG's table: the five bytes it leaves unassigned read as the
    /// Latin-1 control characters, as browsers do).
    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let value = windows1252High[Int(byte - 0x80)]
        return Unicode.Scalar(value) ?? Unicode.Scalar(byte)
    }

    /// Windows-1252's characters for the bytes 0x80 to 0x9F.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

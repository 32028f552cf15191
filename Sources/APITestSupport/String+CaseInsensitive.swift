// MARK: - ASCII case-insensitive comparison

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names need (`Content-Type` and `content-type`), without
    /// making lower-case copies.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy(Self.asciiCaseInsensitiveEquals)
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case (only letters: `\r` is not `-`).
    @inline(__always)
    package static func asciiCaseInsensitiveEquals(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}

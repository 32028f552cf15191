// MARK: - ASCII case-insensitive comparison

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names need (`Content-Type` and `content-type`), without
    /// making lower-case copies.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return withUTF8Bytes { a in other.withUTF8Bytes { b in Self.asciiCaseInsensitiveEquals(a, b) } }
    }

    /// Whether two byte strings are equal but for the case of ASCII letters (see `asciiCaseInsensitiveEquals(_:_:)`
    /// for bytes).
    @inlinable
    package static func asciiCaseInsensitiveEquals(
        _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard x.count == y.count else { return false }
        for index in 0..<x.count where !asciiCaseInsensitiveEquals(x[index], y[index]) { return false }
        return true
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case (only letters: `\r` is not `-`).
    @inlinable @inline(__always)
    package static func asciiCaseInsensitiveEquals(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}

// MARK: - Code-point comparison

/// JSON compares strings by their Unicode code points (RFC 8259 §8.3; RFC 9535 and JSON Schema likewise), while
/// Swift's `String ==`, `<`, `hasPrefix` and `contains` compare by canonical equivalence: `"e\u{301}" == "\u{E9}"`
/// and U+2126 OHM SIGN `==` U+03A9. Every JSON comparison goes through these instead. They compare UTF-8 bytes,
/// which order and match exactly as code points do (UTF-8 is self-synchronizing and preserves code-point order),
/// without allocating.
extension String {
    /// Whether `self` and `other` hold the same code points.
    @inlinable
    package func hasSameCodePoints(as other: String) -> Bool {
        let left = utf8
        let right = other.utf8
        guard left.count == right.count else { return false }
        let contiguous = left.withContiguousStorageIfAvailable { a in
            right.withContiguousStorageIfAvailable { b in a.elementsEqual(b) }
        }
        if let contiguous, let equal = contiguous { return equal }
        return left.elementsEqual(right)
    }

    /// Whether `self` comes before `other` in code-point order (RFC 9535 §2.3.5.2.2's string order).
    @inlinable
    package func precedesInCodePointOrder(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// -1, 0 or 1 ordering `self` and `other` by code points.
    @inlinable
    package func codePointOrder(_ other: String) -> Int {
        if hasSameCodePoints(as: other) { return 0 }
        return precedesInCodePointOrder(other) ? -1 : 1
    }

    /// Whether `self`'s code points start with `prefix`'s.
    @inlinable
    package func hasCodePointPrefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Whether `self`'s code points end with `suffix`'s.
    @inlinable
    package func hasCodePointSuffix(_ suffix: String) -> Bool {
        let count = utf8.count
        let suffixCount = suffix.utf8.count
        guard suffixCount <= count else { return false }
        return utf8.dropFirst(count - suffixCount).elementsEqual(suffix.utf8)
    }

    /// Whether `part`'s code points occur, in order and adjacent, in `self` (an empty `part` always does).
    package func containsCodePoints(_ part: String) -> Bool {
        let needle = Array(part.utf8)
        guard let first = needle.first else { return true }
        let haystack = utf8
        let count = haystack.count
        guard needle.count <= count else { return false }
        var start = haystack.startIndex
        var remaining = count
        while remaining >= needle.count {
            if haystack[start] == first, haystack[start...].starts(with: needle) { return true }
            start = haystack.index(after: start)
            remaining -= 1
        }
        return false
    }
}

// MARK: - Hashing

extension String {
    /// Feeds the string's code points (its UTF-8 bytes) to `hasher`: equal for strings with the same code points,
    /// as ``hasSameCodePoints(as:)`` requires.
    @inlinable
    package func hashCodePoints(into hasher: inout Hasher) {
        let bytes = utf8
        hasher.combine(bytes.count)
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            for byte in bytes { hasher.combine(byte) }
        }
    }
}

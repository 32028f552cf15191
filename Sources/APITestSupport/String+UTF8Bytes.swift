// MARK: - Reading a string's bytes in place

extension String {
    /// Calls `body` with the string's UTF-8 bytes. Native and small strings hold them contiguously and are read in
    /// place; a bridged string is copied first. A loop over the buffer takes a few instructions a byte, where a
    /// walk of `utf8` checks the string's representation at every step: the checks that run for every request and
    /// response use this.
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// The concatenation of `pieces`, built in one buffer of the exact size: what a line of text per test is made
    /// with, where each `+=` would check and grow the string again.
    package static func concatenating(_ pieces: String...) -> String {
        var count = 0
        for piece in pieces { count += piece.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for piece in pieces {
                piece.withUTF8Bytes { bytes in
                    guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                    (target + offset).update(from: source, count: bytes.count)
                    offset += bytes.count
                }
            }
            return offset
        }
    }
}

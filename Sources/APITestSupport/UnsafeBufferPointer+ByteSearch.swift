import Foundation

// MARK: - Finding a byte

extension UnsafeBufferPointer where Element == UInt8 {
    /// The index of the first `byte` in `range` of the buffer, or `nil`: `memchr`, for the scans that run over every
    /// response's header lines or every line of a suite file.
    package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard let base = baseAddress, !range.isEmpty,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

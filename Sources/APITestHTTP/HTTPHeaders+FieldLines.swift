import APITestSupport

// MARK: - Field lines as received

extension HTTPHeaders {
    /// The fields of a response header's field lines as libcurl delivered them, each without its line ending and
    /// followed by `\n` (`TaskDelegate.headerBlock`): `Name: value` lines, with the value's surrounding blanks
    /// trimmed; a line that starts with a space or a tab continues the previous field's value (obs-fold), joined
    /// with one space; a line without a colon is left out.
    ///
    /// The loop thread only copies the lines; they are read on the thread of the task that asks for a field, when it
    /// asks (``ReceivedFieldLines``).
    init(fieldLines block: [UInt8]) {
        self.init(lines: ReceivedFieldLines(block))
    }
}

// MARK: - Common field names

/// The field names most responses carry (`Date`, `Content-Type`, ...), in the spellings of HTTP/1.1 servers and in
/// HTTP/2's lower case, each made into a `String` once: a received name with exactly these bytes takes it, instead
/// of being decoded and validated again for every response (some 170 instructions a name; a lookup here, 30).
enum CommonFieldNames {
    /// The names, of at most 16 bytes each.
    static let names = [
        "Date", "Server", "Content-Type", "Content-Length", "Connection", "Last-Modified", "ETag", "Accept-Ranges",
        "Cache-Control", "Vary", "Set-Cookie", "Location", "Keep-Alive", "Expires", "Age", "Via", "Pragma",
        "Content-Encoding", "X-Request-Id", "Etag", "WWW-Authenticate", "Allow", "Link", "Retry-After",
    ]

    private struct Slot {
        var count: Int
        var words: (UInt64, UInt64)
        var name: String
    }

    private static let slotCount = 128

    /// The names by their bytes, direct-mapped: a slot two names want keeps the first.
    private static let slots: [Slot?] = {
        var slots = [Slot?](repeating: nil, count: slotCount)
        for name in names + names.map { $0.lowercased() } {
            var copy = name
            copy.withUTF8 { bytes in
                let words = Self.words(bytes)
                let index = slot(count: bytes.count, words: words)
                if slots[index] == nil { slots[index] = Slot(count: bytes.count, words: words, name: name) }
            }
        }
        return slots
    }()

    /// The common name spelled with exactly `bytes`, or `nil`.
    static func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count <= 16 else { return nil }
        let words = words(bytes)
        return slots.withUnsafeBufferPointer { slots in
            guard let slot = slots[slot(count: bytes.count, words: words)], slot.count == bytes.count,
                slot.words == words
            else { return nil }
            return slot.name
        }
    }

    /// The first 16 bytes of `bytes` as two little-endian words, zero-padded.
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        guard let base = bytes.baseAddress else { return words }
        withUnsafeMutableBytes(of: &words) { raw in
            for index in 0..<min(bytes.count, 16) { raw[index] = base[index] }
        }
        return words
    }

    private static func slot(count: Int, words: (UInt64, UInt64)) -> Int {
        let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(count)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: mixed >> 57)
    }
}

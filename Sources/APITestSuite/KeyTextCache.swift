// MARK: - The texts of short map keys

/// The `String`s of the short map keys a parse has read, so that the keys every test repeats (`name`, `request`,
/// `url`, `expect`, `status`, `json`) are decoded once, not at each map (decoding and validating a short key costs
/// some 170 instructions, looking it up here about 30).
///
/// Direct-mapped: a key of at most 16 bytes goes to one slot by its bytes and replaces what was there. A context
/// owns one (`SuiteParseContext.keyTexts`) and uses it on its own thread; its storage is a buffer rather than
/// stored properties, so that reading it costs no exclusivity check.
final class KeyTextCache {
    /// The longest key kept, in bytes (read as two words).
    static let maximumLength = 16
    private static let slotCount = 64

    private struct Slot {
        var words: (UInt64, UInt64)
        var count: Int
        var text: String
    }

    private let slots: UnsafeMutablePointer<Slot?>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: nil, count: Self.slotCount)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// The text of the `count` bytes of `bytes` from `start` (a scalar's record in `YAMLDocument.scalarBytes`), as
    /// `text(of:)` reads them.
    func text(start: Int, count: Int, in bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { all in text(of: UnsafeBufferPointer(rebasing: all[start..<(start + count)])) }
    }

    /// The text of `bytes` (valid UTF-8 or not, as `String(decoding:as:)` reads it): the one made earlier for the
    /// same bytes, or a new one, kept.
    func text(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= Self.maximumLength, let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            for index in 0..<bytes.count { raw[index] = base[index] }
        }
        let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bytes.count)) &* 0xFF51_AFD7_ED55_8CCD
        let slot = slots + Int(truncatingIfNeeded: mixed >> 58)
        if let kept = slot.pointee, kept.count == bytes.count, kept.words == words { return kept.text }
        let text = String(decoding: bytes, as: UTF8.self)
        slot.pointee = Slot(words: words, count: bytes.count, text: text)
        return text
    }
}

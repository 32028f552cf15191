/// The keys of one construct by their names, for the suite parser's per-key lookups.
///
/// `init(rawValue:)` of a String enum compares the name with each case in turn, and a `[String: Key]` hashes it with
/// SipHash; both cost more than the rest of reading a key (bench/validate, issue 36). This table hashes the name's
/// UTF-8 bytes with FNV-1a into an open-addressed table at most half full and compares the bytes of the one candidate,
/// so a name is found by its exact code points (as the YAML layer compares keys), never by canonical equivalence.
struct KeyTable<Key: RawRepresentable<String> & Sendable>: Sendable {
    /// The UTF-8 bytes of the names of `keys`, by slot; empty where no key hashes.
    private let names: [[UInt8]]
    /// The key of each slot; `nil` where the slot is empty.
    private let keys: [Key?]
    /// The number of slots minus one (a power of two minus one).
    private let mask: Int

    /// The table of `cases`.
    init(_ cases: [Key]) {
        var size = 8
        while size < cases.count * 2 { size *= 2 }
        var names = [[UInt8]](repeating: [], count: size)
        var keys = [Key?](repeating: nil, count: size)
        for key in cases {
            let bytes = Array(key.rawValue.utf8)
            var slot = bytes.withUnsafeBufferPointer(Self.hash) & (size - 1)
            while keys[slot] != nil { slot = (slot + 1) & (size - 1) }
            names[slot] = bytes
            keys[slot] = key
        }
        self.names = names
        self.keys = keys
        self.mask = size - 1
    }

    /// The key whose name has exactly the code points of `name`, or `nil`.
    func key(named name: String) -> Key? {
        // Iterating `name.utf8` costs some 10 instructions a byte; its contiguous bytes, one or two.
        if let found = name.utf8.withContiguousStorageIfAvailable(key(bytes:)) { return found }
        var copy = name
        return copy.withUTF8(key(bytes:))
    }

    /// The key whose name is `bytes`, or `nil`.
    private func key(bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        var slot = Self.hash(bytes) & mask
        while let key = keys[slot] {
            if names[slot].withUnsafeBufferPointer({ Self.same($0, bytes) }) { return key }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// True when `a` and `b` hold the same bytes (a plain loop: `elementsEqual` costs several times as much).
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        while index < a.count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }

    /// FNV-1a of `bytes`.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash)
    }
}

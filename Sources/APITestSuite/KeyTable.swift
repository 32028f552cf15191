/// The keys of one construct by their names, for the suite parser's per-key lookups.
///
/// `init(rawValue:)` of a String enum compares the name with each case in turn, and a `[String: Key]` hashes it with
/// SipHash; both cost more than the rest of reading a key (bench/validate, issue 36). This table hashes the name's
/// length and three of its UTF-8 bytes (first, middle, last: a construct's few keys differ there) into an
/// open-addressed table at most a quarter full, and compares the bytes of the candidates with the names kept in one
/// array, so a name is found by its exact code points (as the YAML layer compares keys), never by canonical
/// equivalence.
///
/// `Key` is any type (`init(_:)` takes a construct's `RawRepresentable` enum): a requirement on the type itself would
/// make the runtime look up `Key`'s conformance when it first makes the table's metadata, a search of every
/// conformance in the binary (about 370k instructions at each start, for each construct's table).
struct KeyTable<Key: Sendable>: @unchecked Sendable {
    /// Where a slot's name is in the names' bytes, and its key; `key` is `nil` where the slot is empty.
    private struct Slot {
        var offset: Int
        var count: Int
        var key: Key?
    }

    /// The slots and the names' bytes, allocated once and never changed; freed with the last copy of the table.
    /// The table reads them through the pointers it copies (`slots`, `names`), so that a lookup retains nothing:
    /// reading them through arrays cost a lookup as much again.
    private final class Storage {
        let slots: UnsafeMutablePointer<Slot>
        let slotCount: Int
        let names: UnsafeMutablePointer<UInt8>
        let byteCount: Int

        init(slots: [Slot], names: [UInt8]) {
            self.slots = .allocate(capacity: slots.count)
            self.slots.initialize(from: slots, count: slots.count)
            slotCount = slots.count
            self.names = .allocate(capacity: max(names.count, 1))
            self.names.initialize(from: names, count: names.count)
            byteCount = names.count
        }

        deinit {
            slots.deinitialize(count: slotCount)
            slots.deallocate()
            names.deallocate()
        }
    }

    /// What keeps `slots` and `names` allocated.
    private let storage: Storage
    /// The slots, by hash (immutable).
    private let slots: UnsafePointer<Slot>
    /// The UTF-8 bytes of every name, one after another (immutable).
    private let names: UnsafePointer<UInt8>
    /// The number of slots minus one (a power of two minus one).
    private let mask: Int

    /// The table of `cases`, each found by `name(case)`.
    init(_ cases: [Key], names name: (Key) -> String) {
        var size = 16
        while size < cases.count * 4 { size *= 2 }
        var slots = [Slot](repeating: Slot(offset: 0, count: 0, key: nil), count: size)
        var bytes: [UInt8] = []
        for key in cases {
            let name = Array(name(key).utf8)
            var slot = name.withUnsafeBufferPointer(Self.hash) & (size - 1)
            while slots[slot].key != nil { slot = (slot + 1) & (size - 1) }
            slots[slot] = Slot(offset: bytes.count, count: name.count, key: key)
            bytes += name
        }
        storage = Storage(slots: slots, names: bytes)
        self.slots = UnsafePointer(storage.slots)
        self.names = UnsafePointer(storage.names)
        self.mask = size - 1
    }

    /// The key whose name has exactly the code points of `name`, or `nil`.
    func key(named name: String) -> Key? {
        // Iterating `name.utf8` costs some 10 instructions a byte; its contiguous bytes, one or two.
        if let found = name.utf8.withContiguousStorageIfAvailable(key(bytes:)) { return found }
        var copy = name
        return copy.withUTF8(key(bytes:))
    }

    /// The key whose name is the UTF-8 bytes `name`, or `nil`. The name's bytes are compared with those of the
    /// candidates of its length (nearly always one): assembling them into words to compare first cost more.
    func key(bytes name: UnsafeBufferPointer<UInt8>) -> Key? {
        var slot = Self.hash(name) & mask
        while let key = slots[slot].key {
            let candidate = slots[slot]
            if candidate.count == name.count, Self.same(names, at: candidate.offset, name) { return key }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// True when the `name.count` bytes of `names` from `offset` are those of `name` (a plain loop: `elementsEqual`
    /// costs several times as much).
    private static func same(
        _ names: UnsafePointer<UInt8>, at offset: Int, _ name: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        var index = 0
        while index < name.count {
            if names[offset + index] != name[index] { return false }
            index += 1
        }
        return true
    }

    /// A hash of `bytes` from its length and its first, middle and last bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        let middle = Int(bytes[bytes.count / 2])
        return (bytes.count &* 0x9E37) ^ (Int(first) &* 0x1F3) ^ (middle &* 0x65) ^ (Int(last) &* 0x3B)
    }
}

extension KeyTable where Key: RawRepresentable<String> {
    /// The table of `cases`, each found by its raw value.
    init(_ cases: [Key]) {
        self.init(cases) { $0.rawValue }
    }
}

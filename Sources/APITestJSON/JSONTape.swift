/// JSON text that a ``JSONTape`` reads its strings and numbers from, kept alive by the tape (an HTTP body, say).
package protocol JSONText: Sendable {
    /// Calls `body` with the text's UTF-8 bytes.
    func withJSONBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
}

extension Array: JSONText where Element == UInt8 {
    /// The array's bytes.
    package func withJSONBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer(body)
    }
}

/// A validated JSON document in compact form: one 5-byte entry per value and per object key, in document order,
/// over the JSON text it was read from.
///
/// An entry is 40 bits: the kind in the top 3, and 37 bits of payload (texts and tapes up to 128 GiB). A
/// container's payload is the index just past its last descendant (so siblings are skipped in one step); a
/// string's or number's is the byte offset of its text, decoded only when the value is asked for. The densest
/// JSON (`[1,1,…]`, `[[[…]]]`, `[[1],[1],…]`) spends 2 bytes of text per value, so the tape costs at most 2.5
/// bytes per byte of JSON text whatever the shape, against 24 bytes and more per value for a ``JSONValue``
/// tree. Entries live in fixed-size chunks (the low 32 and the high 8 bits in two arrays), so a large tape is
/// never copied to grow. Queries (``query(_:)``) walk the tape and build ``JSONValue``s only for what they
/// select.
package struct JSONTape: Sendable {
    /// The kind of a value, in an entry's top 3 bits.
    package enum Kind: UInt64, Sendable {
        case null = 0
        case `false`, `true`, number, string, array, object

        /// Kinds are equal when their raw values are: written out and inlinable, because the synthesized `==`
        /// reached from another module (the schema's quick check compares a kind several times for every value)
        /// went through `Equatable`'s witness.
        @inlinable package static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue == rhs.rawValue }
    }

    /// The text the entries point into.
    package let text: any JSONText
    private var chunks: [Chunk] = []
    /// The number of entries.
    package private(set) var count = 0
    /// Entries the first chunk reserves: never more than the text can need (a value takes 2 bytes at least).
    private var firstChunkSize = 0

    static let chunkShift = 16
    static let chunkSize = 1 << chunkShift
    static let kindShift: UInt64 = 37
    static let payloadMask: UInt64 = (1 << kindShift) - 1

    /// Reads and validates `text` exactly as ``JSONParser`` does (same errors, same limits).
    ///
    /// - Parameter droppingNullMembers: leave out every object member whose value is `null`, at every depth (as
    ///   `JSONResponseSerializer.removingKeysWithNullValues` does to a tree): the tape then holds no trace of them.
    package init(parsing text: some JSONText, droppingNullMembers: Bool = false) throws(JSONParseError) {
        self.text = text
        let source = text
        let result: Result<Void, JSONParseError> = source.withJSONBytes { buffer in
            firstChunkSize = min(Self.chunkSize, buffer.count / 2 + 2)
            var parser = JSONByteParser(buffer)
            do throws(JSONParseError) {
                try parser.buildTape(into: &self, droppingNullMembers: droppingNullMembers)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    // MARK: - Storage

    /// The entries of one chunk: the low 32 bits and the high 8 bits of each, in two blocks allocated at exactly
    /// `capacity` entries. A full chunk's blocks are powers of two (256 KiB and 64 KiB), sizes every allocator
    /// serves without rounding up, where an array's header past them made the allocator's next size class take
    /// up to 25 % more.
    ///
    /// Written only while the tape is built (by its one owner), read-only once it is shared.
    private final class Chunk: @unchecked Sendable {
        let low: UnsafeMutablePointer<UInt32>
        let high: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            low = .allocate(capacity: capacity)
            high = .allocate(capacity: capacity)
        }

        /// A chunk of `capacity` entries (exactly `count` when `nil`) holding the first `count` of `other`.
        init(copyingFirst count: Int, of other: Chunk, capacity: Int? = nil) {
            self.capacity = capacity ?? count
            low = .allocate(capacity: self.capacity)
            high = .allocate(capacity: self.capacity)
            low.initialize(from: other.low, count: count)
            high.initialize(from: other.high, count: count)
            self.count = count
        }

        deinit {
            low.deallocate()
            high.deallocate()
        }
    }

    /// Bytes held by the entries (allocated capacity, not only the used part), for memory accounting.
    package var allocatedBytes: Int {
        var total = MemoryLayout<JSONTape>.size + chunks.capacity * 8 + 32
        for chunk in chunks { total += chunk.capacity * 5 + 48 }
        return total
    }

    subscript(index: Int) -> UInt64 {
        let chunk = chunks[index >> Self.chunkShift]
        let slot = index & (Self.chunkSize - 1)
        return UInt64(chunk.high[slot]) << 32 | UInt64(chunk.low[slot])
    }

    /// Appends an entry and returns its index.
    @discardableResult
    mutating func append(_ kind: Kind, _ payload: Int) -> Int {
        if chunks.isEmpty {
            chunks.append(Chunk(capacity: firstChunkSize))
        } else if chunks[chunks.count - 1].count == chunks[chunks.count - 1].capacity {
            let last = chunks[chunks.count - 1]
            if last.capacity == Self.chunkSize {
                chunks.append(Chunk(capacity: Self.chunkSize))
            } else {
                // A first chunk reserved smaller than the text turned out to need (every chunk but the last holds
                // `chunkSize` entries): it grows to a full one.
                chunks[chunks.count - 1] = Chunk(copyingFirst: last.count, of: last, capacity: Self.chunkSize)
            }
        }
        let chunk = chunks[chunks.count - 1]
        let entry = kind.rawValue << Self.kindShift | UInt64(payload)
        chunk.low[chunk.count] = UInt32(truncatingIfNeeded: entry)
        chunk.high[chunk.count] = UInt8(truncatingIfNeeded: entry >> 32)
        chunk.count += 1
        count += 1
        return count - 1
    }

    /// Removes the last entry (a key whose member is left out).
    mutating func removeLast() {
        let chunk = chunks[chunks.count - 1]
        chunk.count -= 1
        count -= 1
        if chunk.count == 0 { chunks.removeLast() }
    }

    /// Sets the end (index past the last descendant) of the container at `index`.
    mutating func close(_ index: Int) {
        let entry = self[index] & ~Self.payloadMask | UInt64(count)
        let chunk = chunks[index >> Self.chunkShift]
        let slot = index & (Self.chunkSize - 1)
        chunk.low[slot] = UInt32(truncatingIfNeeded: entry)
        chunk.high[slot] = UInt8(truncatingIfNeeded: entry >> 32)
    }

    /// Gives back unused capacity of the last chunk.
    mutating func shrink() {
        guard let last = chunks.last, last.capacity > last.count + 1024 else { return }
        chunks[chunks.count - 1] = Chunk(copyingFirst: last.count, of: last)
    }

    // MARK: - Nodes

    /// The kind of the value at `index`.
    package func kind(_ index: Int) -> Kind {
        Kind(rawValue: self[index] >> Self.kindShift)!
    }

    /// The index after the value at `index` and everything in it.
    package func end(_ index: Int) -> Int {
        switch kind(index) {
        case .array, .object: Int(self[index] & Self.payloadMask)
        default: index + 1
        }
    }

    /// The indexes of an array's elements, or of an object's member values (each one after its key).
    package func children(_ index: Int) -> [Int] {
        var result: [Int] = []
        forEachChild(index) { _, child in
            result.append(child)
            return true
        }
        return result
    }

    /// Calls `body` with (key index or nil, value index) for each element or member, until it returns false.
    func forEachChild(_ index: Int, _ body: (Int?, Int) -> Bool) {
        let kind = kind(index)
        guard kind == .array || kind == .object else { return }
        let stop = end(index)
        var child = index + 1
        while child < stop {
            if kind == .object {
                guard body(child, child + 1) else { return }
                child = end(child + 1)
            } else {
                guard body(nil, child) else { return }
                child = end(child)
            }
        }
    }

    /// The decoded string at a string or key entry.
    package func string(_ index: Int) -> String {
        text.withJSONBytes { buffer in Self.string(at: self[index], in: buffer) }
    }

    /// The decoded string of the tape entry `entry` (a string or key), read from the text's bytes `buffer`.
    static func string(at entry: UInt64, in buffer: UnsafeBufferPointer<UInt8>) -> String {
        var parser = JSONByteParser(buffer)
        parser.position = Int(entry & payloadMask)
        return (try? parser.parseString()) ?? ""
    }

    /// Whether the key whose text starts at `offset` of `buffer` (after its opening quote) is `wanted`, compared
    /// byte for byte; `nil` when the key has an escape before it differs (decode it to compare).
    static func plainKey(
        at offset: Int, in buffer: UnsafeBufferPointer<UInt8>, equals wanted: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        var position = offset
        for byte in wanted {
            guard position < buffer.count else { return false }
            let found = buffer[position]
            if found == UInt8(ascii: "\\") { return nil }
            if found != byte { return false }
            position += 1
        }
        guard position < buffer.count else { return false }
        if buffer[position] == UInt8(ascii: "\\") { return nil }
        return buffer[position] == UInt8(ascii: "\"")
    }

    /// The value at `index` as a ``JSONValue`` (built now, with everything in it).
    package func value(_ index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .string: return .string(string(index))
        case .number:
            let offset = Int(self[index] & Self.payloadMask)
            return text.withJSONBytes { buffer in
                var parser = JSONByteParser(buffer)
                parser.position = offset
                return (try? parser.parseNumber()) ?? .null
            }
        case .array:
            var elements: [JSONValue] = []
            forEachChild(index) { _, child in
                elements.append(value(child))
                return true
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            forEachChild(index) { key, child in
                members.append((key: string(key!), value: value(child)))
                return true
            }
            return .object(JSONObject(parsedMembers: members))
        }
    }

    /// The whole document as a ``JSONValue``.
    package var root: JSONValue { value(0) }
}

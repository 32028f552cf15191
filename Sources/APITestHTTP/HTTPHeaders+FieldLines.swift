import APITestSupport
import Synchronization

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

/// A response header's field lines (see ``HTTPHeaders/init(fieldLines:)``), read when asked: a lookup by name reads
/// them in place, making a `String` of the values it finds only; the whole list is made on its first read, once.
final class ReceivedFieldLines: Sendable {
    /// The lines, each followed by `\n`.
    let bytes: [UInt8]
    /// The fields as a list, once made.
    private let list = Mutex<[HTTPHeaders.Field]?>(nil)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Every field, in order; made on the first read.
    var fields: [HTTPHeaders.Field] {
        list.withLock { list in
            if let list { return list }
            let made = Self.fields(of: bytes)
            list = made
            return made
        }
    }

    /// Whether the list of fields has been made (a lookup by name does not make it).
    var madeList: Bool {
        list.withLock { $0 != nil }
    }

    /// The first value of the field called `name` (compared as ``HTTPHeaders/subscript(_:)`` compares).
    func firstValue(named name: String) -> String? {
        var found: String?
        forEachValue(named: name) { value in
            found = value
            return false
        }
        return found
    }

    /// Every value of the field called `name`, in order.
    func values(named name: String) -> [String] {
        var found: [String] = []
        forEachValue(named: name) { value in
            found.append(value)
            return true
        }
        return found
    }

    /// Calls `body` with the value of each field called `name`, in order, until it returns false: the fields
    /// ``fields(of:)`` would make, read in place (a folded line joined to its field's value, a line without a
    /// colon left out).
    private func forEachValue(named name: String, _ body: (String) -> Bool) {
        name.withUTF8Bytes { wanted in
            // An ASCII name without a colon can only be a line's bytes up to its first colon: the byte after it must
            // be that colon, so the line is not searched for one (a name with other bytes is compared as text).
            let plain = wanted.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: ":") }
            bytes.withUnsafeBufferPointer { bytes in
                // The value of the field being read when its name is `name`, completed by any folded lines after it.
                var matched: String?
                var lineStart = 0
                while lineStart < bytes.count {
                    let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n"), in: lineStart..<bytes.count) ?? bytes.count
                    let line = bytes[lineStart..<lineEnd]
                    lineStart = lineEnd + 1
                    guard let first = line.first else { continue }
                    if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                        if matched != nil { matched! += " " + Self.trimmedText(line) }
                        continue
                    }
                    if plain, matched == nil {
                        let colon = line.startIndex + wanted.count
                        if colon < line.endIndex, bytes[colon] == UInt8(ascii: ":"),
                            String.asciiCaseInsensitiveEquals(
                                UnsafeBufferPointer(rebasing: bytes[line.startIndex..<colon]), wanted)
                        {
                            matched = Self.trimmedText(line[(colon + 1)...])
                        }
                        continue
                    }
                    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":"), in: line.startIndex..<line.endIndex)
                    else { continue }
                    // A new field: the one matched before it is complete.
                    if let value = matched {
                        matched = nil
                        guard body(value) else { return }
                    }
                    if Self.name(UnsafeBufferPointer(rebasing: line[..<colon]), is: wanted) {
                        matched = Self.trimmedText(line[(colon + 1)...])
                    }
                }
                if let value = matched { _ = body(value) }
            }
        }
    }

    /// Whether a received name's bytes make the name `wanted`, compared as `String.caseInsensitiveEquals` compares
    /// the `String` ``fields(of:)`` makes of them (invalid UTF-8 repaired).
    private static func name(_ bytes: UnsafeBufferPointer<UInt8>, is wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String.asciiCaseInsensitiveEquals(bytes, wanted) }
        let name = String(decoding: bytes, as: UTF8.self)
        return name.withUTF8Bytes { String.asciiCaseInsensitiveEquals($0, wanted) }
    }

    /// The fields of `block`, as ``HTTPHeaders/init(fieldLines:)`` describes them.
    static func fields(of block: [UInt8]) -> [HTTPHeaders.Field] {
        var fields: [HTTPHeaders.Field] = []
        block.withUnsafeBufferPointer { bytes in
            /// The index of the first `byte` in `start..<end`, or `end` (memchr: this runs for every response).
            func first(_ byte: UInt8, from start: Int, to end: Int) -> Int {
                bytes.firstIndex(of: byte, in: start..<end) ?? end
            }
            // Room for a field per 16 bytes, without a first pass counting the lines (real field lines are longer;
            // shorter ones only make the array grow).
            fields.reserveCapacity(bytes.count / 16 + 1)
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = first(UInt8(ascii: "\n"), from: lineStart, to: bytes.count)
                let line = bytes[lineStart..<lineEnd]
                lineStart = lineEnd + 1
                guard !line.isEmpty else { continue }
                if line[line.startIndex] == UInt8(ascii: " ") || line[line.startIndex] == UInt8(ascii: "\t") {
                    guard !fields.isEmpty else { continue }
                    fields[fields.count - 1].value += " " + Self.trimmedText(line)
                    continue
                }
                let colon = first(UInt8(ascii: ":"), from: line.startIndex, to: line.endIndex)
                guard colon < line.endIndex else { continue }
                let name = UnsafeBufferPointer(rebasing: line[..<colon])
                fields.append(
                    HTTPHeaders.Field(
                        name: CommonFieldNames.name(name) ?? String(decoding: name, as: UTF8.self),
                        value: Self.trimmedText(line[(colon + 1)...])))
            }
        }
        return fields
    }

    /// The text of `bytes` without the spaces and tabs around it.
    private static func trimmedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
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

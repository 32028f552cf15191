import APITestSupport
import Synchronization

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

    // MARK: - Lookup by name

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

    // MARK: - The list of fields

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

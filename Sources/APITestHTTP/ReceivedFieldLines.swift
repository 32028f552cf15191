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

    /// `body` on the bytes of the first value of the field called `name`, read in place (`nil` when there is no
    /// such field), for an ASCII `name` without a colon whose value no folded line continues; `nil` without calling
    /// `body` otherwise. The bytes are those ``firstValue(named:)`` makes its `String` of.
    func withFirstValue<Result>(named name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result? {
        name.withUTF8Bytes { wanted in
            guard FieldLineReader.isPlainName(wanted) else { return nil }
            return bytes.withUnsafeBufferPointer { bytes in
                var reader = FieldLineReader(bytes)
                guard let value = reader.nextValue(ofPlainName: wanted) else { return body(nil) }
                // A folded line after the field (lines without a colon between them left out) joins its value.
                if case .fold = reader.next() { return nil }
                return body(UnsafeBufferPointer(rebasing: value))
            }
        }
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
    /// ``fields(of:)`` would make, read in place (``FieldLineReader``).
    private func forEachValue(named name: String, _ body: (String) -> Bool) {
        name.withUTF8Bytes { wanted in
            let plain = FieldLineReader.isPlainName(wanted)
            bytes.withUnsafeBufferPointer { bytes in
                var reader = FieldLineReader(bytes)
                // The value of the field being read when its name is `name`, completed by any folded lines after it.
                var matched: String?
                while true {
                    if plain, matched == nil {
                        // Until a field called `name` comes, no line is searched for its colon.
                        guard let value = reader.nextValue(ofPlainName: wanted) else { return }
                        matched = Self.text(value)
                        continue
                    }
                    guard let line = reader.next() else { break }
                    switch line {
                    case .fold(let text):
                        if matched != nil { matched! += " " + Self.text(text) }
                    case .field(let fieldName, let value):
                        // A new field: the one matched before it is complete.
                        if let value = matched {
                            matched = nil
                            guard body(value) else { return }
                        }
                        if Self.name(UnsafeBufferPointer(rebasing: fieldName), is: wanted) {
                            matched = Self.text(value)
                        }
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

    /// The fields of `block`, as ``HTTPHeaders/init(fieldLines:)`` describes them (``FieldLineReader``).
    static func fields(of block: [UInt8]) -> [HTTPHeaders.Field] {
        var fields: [HTTPHeaders.Field] = []
        block.withUnsafeBufferPointer { bytes in
            // Room for a field per 16 bytes, without a first pass counting the lines (real field lines are longer;
            // shorter ones only make the array grow).
            fields.reserveCapacity(bytes.count / 16 + 1)
            var reader = FieldLineReader(bytes)
            while let line = reader.next() {
                switch line {
                case .fold(let text):
                    guard !fields.isEmpty else { continue }
                    fields[fields.count - 1].value += " " + Self.text(text)
                case .field(let name, let value):
                    let name = UnsafeBufferPointer(rebasing: name)
                    fields.append(
                        HTTPHeaders.Field(
                            name: CommonFieldNames.name(name) ?? String(decoding: name, as: UTF8.self),
                            value: Self.text(value)))
                }
            }
        }
        return fields
    }

    /// The text of `bytes` (invalid UTF-8 repaired).
    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

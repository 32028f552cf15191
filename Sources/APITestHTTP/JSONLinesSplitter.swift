/// Splits a streamed body into records as they arrive: NDJSON / JSON Lines (`application/x-ndjson`,
/// `application/jsonl`: one JSON text a line, LF or CRLF, blank lines skipped) and JSON text sequences
/// (`application/json-seq`, RFC 7464: each record starts with RS, U+001E, and ends with LF).
///
/// A record longer than `maximumRecordSize` bytes stops the splitter with `tooLarge`; a last line without its line
/// end is a record when the stream ends (`finish`).
package struct JSONLinesSplitter {
    /// How records are delimited.
    package enum Framing: Sendable, Hashable {
        /// One record a line.
        case lines
        /// RFC 7464: RS before each record.
        case sequence
    }

    /// A record passed the limit in bytes.
    package struct TooLarge: Error, Sendable, Hashable {
        /// The limit in bytes.
        package var limit: Int
    }

    /// How records are delimited.
    package let framing: Framing
    /// The longest record kept, in bytes.
    package let maximumRecordSize: Int
    private var record: [UInt8] = []

    /// A splitter for one stream.
    package init(framing: Framing = .lines, maximumRecordSize: Int = 16 << 20) {
        self.framing = framing
        self.maximumRecordSize = maximumRecordSize
    }

    /// Reads `bytes`, calling `emit` with each record completed (its text without line end or RS); `emit` returns
    /// false to stop. Returns false when `emit` stopped.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (String) -> Bool) throws(TooLarge) -> Bool {
        for byte in bytes {
            let ends = framing == .lines ? byte == 0x0A : byte == 0x1E
            if ends {
                if let text = take(), !emit(text) { return false }
                continue
            }
            guard record.count < maximumRecordSize else { throw TooLarge(limit: maximumRecordSize) }
            record.append(byte)
        }
        return true
    }

    /// The stream ended: the record still pending, if it holds anything.
    package mutating func finish() -> String? {
        take()
    }

    /// The pending record without its trailing white space of line ends; `nil` when blank.
    private mutating func take() -> String? {
        defer { record.removeAll(keepingCapacity: true) }
        var end = record.count
        while end > 0,
            record[end - 1] == 0x0D || record[end - 1] == 0x0A || record[end - 1] == 0x20 || record[end - 1] == 0x09
        {
            end -= 1
        }
        var start = 0
        while start < end, record[start] == 0x20 || record[start] == 0x09 { start += 1 }
        guard start < end else { return nil }
        return String(decoding: record[start..<end], as: UTF8.self)
    }
}

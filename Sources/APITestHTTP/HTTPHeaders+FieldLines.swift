import APITestSupport

// MARK: - Field lines as received

extension HTTPHeaders {
    /// The fields of a response header's field lines as libcurl delivered them, each without its line ending and
    /// followed by `\n` (`TaskDelegate.headerBlock`): `Name: value` lines, with the value's surrounding blanks
    /// trimmed; a line that starts with a space or a tab continues the previous field's value (obs-fold), joined
    /// with one space; a line without a colon is left out.
    ///
    /// The loop thread only copies the lines; they are read here, on the thread of the task that asked for the
    /// response, because the loop thread's time is every transfer's.
    init(fieldLines block: [UInt8]) {
        var fields: [Field] = []
        block.withUnsafeBufferPointer { bytes in
            /// The index of the first `byte` in `start..<end`, or `end` (memchr: this runs for every response).
            func first(_ byte: UInt8, from start: Int, to end: Int) -> Int {
                bytes.firstIndex(of: byte, in: start..<end) ?? end
            }
            var lineCount = 0
            var position = 0
            while position < bytes.count {
                position = first(UInt8(ascii: "\n"), from: position, to: bytes.count) + 1
                lineCount += 1
            }
            fields.reserveCapacity(lineCount)
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
                fields.append(
                    Field(
                        name: String(decoding: line[..<colon], as: UTF8.self),
                        value: Self.trimmedText(line[(colon + 1)...])))
            }
        }
        self.init(fields)
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

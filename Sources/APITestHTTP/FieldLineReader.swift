import APITestSupport

/// The lines of a block of received field lines (each followed by `\n`, as ``HTTPHeaders/init(fieldLines:)``
/// describes them), in order, read by the one grammar both the lookup by name and the list of fields use
/// (``ReceivedFieldLines``): a line that starts with a space or a tab continues the previous field's value
/// (obs-fold); any other line is a field's when it has a colon, its name the bytes before the first colon and its
/// value those after it; empty lines and lines without a colon are left out. Values are trimmed of the spaces and
/// tabs around them; names are not trimmed.
struct FieldLineReader {
    /// One line of the block that is a field's or a fold.
    enum Line {
        /// A field's line: its name's bytes (up to the line's first colon) and its value's, trimmed.
        case field(name: Slice<UnsafeBufferPointer<UInt8>>, value: Slice<UnsafeBufferPointer<UInt8>>)
        /// A line that continues the previous field's value: its bytes, trimmed.
        case fold(Slice<UnsafeBufferPointer<UInt8>>)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next line starts.
    private var lineStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Reading lines

    /// The next field or fold line, or `nil` at the end of the block.
    mutating func next() -> Line? {
        while let line = nextLine() {
            let first = line[line.startIndex]
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { return .fold(Self.trimmed(line)) }
            // memchr: this runs for every response's `Content-Type`.
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":"), in: line.startIndex..<line.endIndex) else {
                continue
            }
            return .field(name: line[..<colon], value: Self.trimmed(line[(colon + 1)...]))
        }
        return nil
    }

    /// The value of the next field line called `name`, skipping every other line, or `nil` at the end of the block;
    /// `name` must be ASCII without a colon (see ``isPlainName(_:)``).
    ///
    /// What ``next()`` would find by reading every line, without searching each line for its colon: a name
    /// without a colon can only be a line's bytes up to its first colon when the byte after them is that colon.
    mutating func nextValue(ofPlainName name: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>>? {
        while let line = nextLine() {
            let first = line[line.startIndex]
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { continue }
            let colon = line.startIndex + name.count
            if colon < line.endIndex, bytes[colon] == UInt8(ascii: ":"),
                String.asciiCaseInsensitiveEquals(UnsafeBufferPointer(rebasing: bytes[line.startIndex..<colon]), name)
            {
                return Self.trimmed(line[(colon + 1)...])
            }
        }
        return nil
    }

    /// Whether `name` can be looked up by ``nextValue(ofPlainName:)``: ASCII, without a colon.
    static func isPlainName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: ":") }
    }

    /// The next line that is not empty, without its `\n`, or `nil` at the end of the block.
    private mutating func nextLine() -> Slice<UnsafeBufferPointer<UInt8>>? {
        while lineStart < bytes.count {
            let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n"), in: lineStart..<bytes.count) ?? bytes.count
            let start = lineStart
            lineStart = lineEnd + 1
            if lineEnd > start { return bytes[start..<lineEnd] }
        }
        return nil
    }

    /// `bytes` without the spaces and tabs around them.
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return bytes[start..<end]
    }
}

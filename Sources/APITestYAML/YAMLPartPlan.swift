import APITestSupport

/// Where a suite's text can be cut so that each part composes on its own, for `YAMLComposer.composeInParts`.
///
/// The text must be a map whose `tests` key, written at the start of a line, holds a block list, with nothing after
/// the list: the cuts are at lines that start one of its items (`- ` at the column of its first item). Each part
/// after the first is then a block list of whole items, and the first part is the text up to the first cut. The
/// plan only finds candidates: a cut inside a block scalar, a quoted scalar or a flow collection makes a part fail
/// to compose or compose to another shape, which `composeInParts` checks.
///
/// Texts whose line count libyaml would read differently from a count of line feeds (a carriage return alone, a
/// next-line, line- or paragraph-separator character) get no plan: a part's marks are its own marks plus the lines
/// before it. Nor do texts with a directive (`%TAG`) before the key, whose meaning the later parts would not know, or
/// with a line after the list's first item that starts with anything but a space, a
/// comment or (for a list at the first column) an item: a document marker (`---`, `...`) or a key after the list,
/// which no part could stand for.
package struct YAMLPartPlan {
    /// The first byte of each part; the first part starts at 0.
    package let starts: [Int]
    /// The number of lines before each part.
    package let lineOffsets: [Int]
    /// The number of bytes of the text.
    package let byteCount: Int
    /// The column (0-based) of the dash of every item of the list.
    package let indent: Int
    /// The line (1-based) of the list's first item.
    package let firstItemLine: Int

    /// The key whose list is cut.
    private static let key = Array("tests:".utf8)

    /// A plan of up to `parts` parts for `bytes`; `nil` when the text has no list to cut or is one of the texts
    /// above, or when no cut was found.
    package init?(_ bytes: UnsafeBufferPointer<UInt8>, parts: Int) {
        guard parts > 1, !Self.hasOtherLineBreaks(bytes) else { return nil }
        let count = bytes.count
        var lines = Self.LineCursor(bytes: bytes)
        // The key's line. A directive before it (`%TAG ! tag:yaml.org,2002:`) would change what the tags of the
        // later parts, composed without it, mean.
        while !lines.atEnd, !Self.isKeyLine(lines.current, in: bytes) {
            if bytes[lines.current] == UInt8(ascii: "%") { return nil }
            lines.advance()
        }
        guard !lines.atEnd else { return nil }
        lines.advance()
        // The first item: blank and comment lines may come before it.
        var indent = 0
        while !lines.atEnd {
            let start = lines.current
            var column = start
            while column < count, bytes[column] == UInt8(ascii: " ") { column += 1 }
            if column == count || Self.isBlankOrComment(bytes[column]) {
                lines.advance()
                continue
            }
            guard Self.isItemStart(at: column, in: bytes) else { return nil }
            indent = column - start
            break
        }
        guard !lines.atEnd else { return nil }
        let firstItem = lines.current
        let firstItemLine = lines.line
        // Cuts near each equal share of what follows the first item, each at the next line that starts an item.
        var starts = [0]
        var lineOffsets = [0]
        for part in 1..<parts {
            let target = firstItem + (count - firstItem) * part / parts
            guard target > lines.current else { continue }
            lines.advanceToLine(containing: target)
            while !lines.atEnd {
                if lines.current > firstItem, Self.isItem(at: lines.current, indent: indent, in: bytes) { break }
                lines.advance()
            }
            guard !lines.atEnd else { break }
            starts.append(lines.current)
            lineOffsets.append(lines.line - 1)
            lines.advance()
        }
        guard starts.count > 1, !Self.hasLineOutsideTheList(bytes, from: firstItem, indent: indent) else { return nil }
        self.starts = starts
        self.lineOffsets = lineOffsets
        self.byteCount = count
        self.indent = indent
        self.firstItemLine = firstItemLine
    }

    /// The bytes of part `part`.
    package func range(of part: Int) -> Range<Int> {
        starts[part]..<(part + 1 < starts.count ? starts[part + 1] : byteCount)
    }

    // MARK: - Lines

    /// Walks the starts of lines, counting them.
    private struct LineCursor {
        package let bytes: UnsafeBufferPointer<UInt8>
        /// The first byte of the current line.
        private(set) var current = 0
        /// The current line's number, 1-based.
        private(set) var line = 1

        package var atEnd: Bool { current >= bytes.count }

        /// Moves to the next line (or to the end).
        package mutating func advance() {
            guard let feed = bytes.firstIndex(of: UInt8(ascii: "\n"), in: current..<bytes.count) else {
                current = bytes.count
                return
            }
            current = feed + 1
            line += 1
        }

        /// Moves to the first line that starts at or after byte `offset`.
        package mutating func advanceToLine(containing offset: Int) {
            while current < offset {
                advance()
            }
        }
    }

    /// Whether the line at `start` is the key `tests:` with nothing after it but spaces or a comment.
    private static func isKeyLine(_ start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - start >= key.count else { return false }
        for (offset, byte) in key.enumerated() where bytes[start + offset] != byte { return false }
        var position = start + key.count
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
        return position == bytes.count || isBlankOrComment(bytes[position])
    }

    /// Whether a line's first byte after its spaces makes it blank or a comment.
    private static func isBlankOrComment(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "#")
    }

    /// Whether a list item starts at `position`: a dash followed by a space or the end of the line.
    private static func isItemStart(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "-") else { return false }
        guard position + 1 < bytes.count else { return true }
        let next = bytes[position + 1]
        return next == UInt8(ascii: " ") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
    }

    /// Whether the line at `start` starts an item at column `indent`: exactly that many spaces, then an item.
    private static func isItem(at start: Int, indent: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - start > indent else { return false }
        for offset in 0..<indent where bytes[start + offset] != UInt8(ascii: " ") { return false }
        return isItemStart(at: start + indent, in: bytes)
    }

    // MARK: - Texts without a plan

    /// Whether the text has a line break other than a line feed (alone or after a carriage return): libyaml counts
    /// a lone carriage return, U+0085, U+2028 and U+2029 as line breaks.
    private static func hasOtherLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        func positions(of byte: UInt8, _ body: (Int) -> Bool) -> Bool {
            var position = 0
            while let index = bytes.firstIndex(of: byte, in: position..<count) {
                if body(index) { return true }
                position = index + 1
            }
            return false
        }
        return positions(of: UInt8(ascii: "\r")) { index in index + 1 >= count || bytes[index + 1] != UInt8(ascii: "\n")
        }
            || positions(of: 0xC2) { index in index + 1 < count && bytes[index + 1] == 0x85 }
            || positions(of: 0xE2) { index in
                index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
            }
    }

    /// Whether a line at or after `start` begins with `---` or `...` (a document's start or end), or with
    /// anything at its first column that cannot be inside the list: a key after it, say, which would make the last
    /// part fail only after every part was composed. Blank lines, comments and, for a list written at the first
    /// column, its items may start there.
    private static func hasLineOutsideTheList(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, indent: Int
    ) -> Bool {
        var lines = LineCursor(bytes: bytes)
        lines.advanceToLine(containing: start)
        while !lines.atEnd {
            let position = lines.current
            let first = bytes[position]
            if bytes.count - position >= 3, first == UInt8(ascii: "-") || first == UInt8(ascii: "."),
                bytes[position + 1] == first, bytes[position + 2] == first
            {
                return true
            }
            if first != UInt8(ascii: " "), !isBlankOrComment(first),
                !(indent == 0 && isItemStart(at: position, in: bytes))
            {
                return true
            }
            lines.advance()
        }
        return false
    }
}

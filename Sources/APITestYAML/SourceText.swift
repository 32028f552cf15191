package import APITestSupport

/// A suite's text indexed by Unicode scalars, for turning offsets inside YAML values into line and column.
///
/// libyaml counts columns in Unicode scalars, so all offsets here do too. The text is kept as UTF-8 (the string's
/// own bytes) with the scalar offset of each line start and the byte offset of every 256th scalar: a window of
/// scalars is decoded where it is needed, in time linear in its length, so the index costs a few bytes a line
/// instead of 4 bytes a character.
package final class SourceText {
    package let file: String
    /// The text, contiguous UTF-8.
    private let text: String
    /// The number of Unicode scalars in the text.
    package let scalarCount: Int
    /// The scalar offset where each line starts.
    package let lineStarts: [Int]
    /// The byte offset of scalar `n × checkpointInterval`, for each `n`.
    private let checkpoints: [Int]
    private static let checkpointInterval = 256

    package init(file: String, text: String) {
        var text = text
        text.makeContiguousUTF8()
        self.file = file
        self.text = text
        var starts = [0]
        var checkpoints: [Int] = []
        var count = 0
        text.withUTF8 { bytes in
            checkpoints.reserveCapacity(bytes.count / Self.checkpointInterval + 1)
            for index in bytes.indices where bytes[index] & 0xC0 != 0x80 {
                if count % Self.checkpointInterval == 0 { checkpoints.append(index) }
                count += 1
                if bytes[index] == UInt8(ascii: "\n") { starts.append(count) }
            }
        }
        self.scalarCount = count
        self.lineStarts = starts
        self.checkpoints = checkpoints
    }

    // MARK: - Scalars

    /// The scalars at offsets `range` (clamped to the text), decoded from the text's UTF-8.
    package func scalars(in range: Range<Int>) -> [Unicode.Scalar] {
        let lower = max(0, min(range.lowerBound, scalarCount))
        let upper = max(lower, min(range.upperBound, scalarCount))
        guard lower < upper else { return [] }
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(upper - lower)
        var text = self.text
        text.withUTF8 { bytes in
            // From the checkpoint at or before `lower`, skip to it, then decode.
            let byte = byteOffset(ofScalar: lower, in: bytes)
            var offset = lower
            var decoder = UTF8()
            var iterator = bytes[byte...].makeIterator()
            while offset < upper, case .scalarValue(let scalar) = decoder.decode(&iterator) {
                result.append(scalar)
                offset += 1
            }
        }
        return result
    }

    /// The byte offset of the scalar at `offset` (at most `scalarCount`) in `bytes`, the text's UTF-8.
    private func byteOffset(ofScalar offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard offset < scalarCount else { return bytes.count }
        var byte = checkpoints[offset / Self.checkpointInterval]
        var current = offset - offset % Self.checkpointInterval
        while current < offset {
            byte += Self.width(ofScalarStartingWith: bytes[byte])
            current += 1
        }
        return byte
    }

    /// The number of bytes of a UTF-8 sequence that starts with `byte` (the text is valid UTF-8).
    private static func width(ofScalarStartingWith byte: UInt8) -> Int {
        switch byte {
        case ..<0x80: 1
        case 0xF0...: 4
        case 0xE0...: 3
        default: 2
        }
    }

    // MARK: - Offsets

    /// The scalar offset of a 1-based line and column, clamped to the text.
    package func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return scalarCount }
        return min(scalarCount, lineStarts[line - 1] + max(0, column - 1))
    }

    /// The location of a scalar offset.
    package func location(ofOffset offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: file, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The location of a UTF-8 byte offset, as libyaml's reader reports them.
    package func location(ofUTF8Offset byteOffset: Int) -> SourceLocation {
        var bytes = 0
        var offset = 0
        for scalar in text.unicodeScalars {
            if bytes >= byteOffset { return location(ofOffset: offset) }
            bytes += UTF8.width(scalar)
            offset += 1
        }
        return location(ofOffset: scalarCount)
    }

    /// The text of a 1-based line without its line break, or `nil` past the end.
    package func line(_ number: Int) -> [Unicode.Scalar]? {
        guard number >= 1, number <= lineStarts.count else { return nil }
        let start = lineStarts[number - 1]
        let end = number < lineStarts.count ? lineStarts[number] - 1 : scalarCount
        var line = scalars(in: start..<max(start, end))
        if line.last == "\r" { line.removeLast() }
        return line
    }

    /// True when libyaml numbers the lines and columns of `text` as `SourceText` does: the text does not start
    /// with a byte-order mark (libyaml skips it without counting a column) and breaks lines only with `\n` or
    /// `\r\n` (libyaml also breaks lines at a lone `\r`, U+0085, U+2028 and U+2029).
    package static func marksMatchLibyaml(in text: String) -> Bool {
        var text = text
        text.makeContiguousUTF8()
        return text.withUTF8 { bytes in
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return false }
            for index in bytes.indices where bytes[index] == 0x0D || bytes[index] == 0xC2 || bytes[index] == 0xE2 {
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                let third = index + 2 < bytes.count ? bytes[index + 2] : 0
                switch bytes[index] {
                case 0x0D where next != 0x0A: return false // a lone \r
                case 0xC2 where next == 0x85: return false // U+0085
                case 0xE2 where next == 0x80 && (third == 0xA8 || third == 0xA9): return false // U+2028, U+2029
                default: break
                }
            }
            return true
        }
    }

    // MARK: - Locating text inside a value

    /// Where a piece of a YAML value's text is written in the source.
    ///
    /// The piece is `value[offset..<offset + length]` (scalar offsets). Quoting and line folding mean the value's
    /// text is not always written as is, so this finds the same occurrence of the piece in the source, searching
    /// from where the value starts; when that fails, it falls back to the start of the value plus `offset`.
    package func locate(
        pieceAt offset: Int, length: Int, in value: String, valueStart: SourceLocation
    ) -> SourceLocation {
        locate(pieces: [(offset, length)], in: value, valueStart: valueStart)[0]
    }

    /// Where each of several pieces of one YAML value's text is written in the source, as `locate(pieceAt:)`
    /// finds one, in one pass: `pieces` are `(offset, length)` in increasing offset order, and each search goes
    /// on from where the previous piece was found, in the value and in the source, so the work is linear in the
    /// value's length however many pieces there are (4,000 placeholders in one string).
    package func locate(
        pieces: [(offset: Int, length: Int)], in value: String, valueStart: SourceLocation
    ) -> [SourceLocation] {
        let start = self.offset(line: valueStart.line, column: valueStart.column)
        if let delta = verbatimStart(of: value, from: start) {
            // Each piece is where it is in the value: the search below would find the same places.
            let valueCount = value.unicodeScalars.count
            var valueCursor = 0
            return pieces.map { piece in
                let (offset, length) = piece
                guard offset >= 0, length > 0, offset + length <= valueCount, offset >= valueCursor else {
                    return valueStart
                }
                valueCursor = offset + length
                return location(ofOffset: start + delta + offset)
            }
        }
        let valueScalars = Array(value.unicodeScalars)
        // A value's source is rarely more than a few times longer than its text (escapes, folding).
        let limit = min(scalarCount, start + valueScalars.count * 4 + 64)
        // The source from the value's start to the limit; offsets into it are `window offset + start`.
        let scalars = self.scalars(in: start..<limit)
        var valueCursor = 0
        var sourceCursor = 0
        return pieces.map { piece in
            let (offset, length) = piece
            guard offset >= 0, length > 0, offset + length <= valueScalars.count, offset >= valueCursor else {
                return valueStart
            }
            let text = valueScalars[offset..<(offset + length)]
            // The piece is the n-th occurrence of its text after the previous piece in the value; take the n-th
            // after the previous piece in the source.
            var wanted = 0
            var index = valueCursor
            while index < offset {
                if Self.matches(text, in: valueScalars, at: index) { wanted += 1 }
                index += 1
            }
            var found = sourceCursor
            while found + length <= scalars.count {
                if Self.matches(text, in: scalars, at: found) {
                    if wanted == 0 { break }
                    wanted -= 1
                }
                found += 1
            }
            guard found + length <= scalars.count else {
                var fallback = valueStart
                fallback.column += offset
                return fallback
            }
            valueCursor = offset + length
            sourceCursor = found + length
            return location(ofOffset: start + found)
        }
    }

    /// 0 when the source holds `value` as is, on one line, at scalar `start` (a plain value), 1 when it does one
    /// scalar later (a quoted value without escapes, after its quote, which the value does not hold); `nil`
    /// otherwise.
    ///
    /// Then the occurrences of a piece of the value before a given one are, one for one, those in the source from
    /// `start` (no piece can start at the quote): the search of `locate(pieces:in:valueStart:)` finds each piece at
    /// the start plus the piece's offset in the value, which this gives without searching.
    private func verbatimStart(of value: String, from start: Int) -> Int? {
        var value = value
        var text = self.text
        return value.withUTF8 { value in
            guard !value.contains(UInt8(ascii: "\n")), !value.contains(UInt8(ascii: "\r")) else { return nil }
            return text.withUTF8 { bytes in
                let first = byteOffset(ofScalar: start, in: bytes)
                for delta in 0...1 {
                    let from = first + delta
                    if from + value.count <= bytes.count,
                        UnsafeBufferPointer(rebasing: bytes[from..<(from + value.count)]).elementsEqual(value)
                    {
                        return delta
                    }
                    // The quote a quoted value starts with is one byte; were it in the value, a piece starting
                    // with it would be found at the quote.
                    guard first < bytes.count, bytes[first] == UInt8(ascii: "\"") || bytes[first] == UInt8(ascii: "'"),
                        !value.contains(bytes[first])
                    else { return nil }
                }
                return nil
            }
        }
    }

    /// Whether `haystack` holds `piece` at `start`.
    private static func matches(
        _ piece: ArraySlice<Unicode.Scalar>, in haystack: [Unicode.Scalar], at start: Int
    ) -> Bool {
        guard start + piece.count <= haystack.count, haystack[start] == piece.first else { return false }
        var index = start
        for scalar in piece {
            if haystack[index] != scalar { return false }
            index += 1
        }
        return true
    }
}

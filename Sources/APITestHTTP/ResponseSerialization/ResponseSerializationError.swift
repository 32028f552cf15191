import APITestSupport

/// A body that a decoder could not decode: which decoder, where in the body and why.
public struct ResponseSerializationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The decoder's name (`json`, `xml`, `plist`, `image`, `text`, `binary`), or `chain` for errors of the chain.
    public var decoder: String
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var reason: String
    /// The 0-based byte offset in the body where the problem was found, when known.
    public var byteOffset: Int?
    /// The 1-based line of the problem, for text formats.
    public var line: Int?
    /// The 1-based column of the problem, for text formats.
    public var column: Int?
    /// Where in a JSON body the problem is, as JSON Pointer text (RFC 6901, `/items/3/id`; empty at the top): in a
    /// minified body, whose every position is on line 1, it says where the column is. `nil` for other formats.
    public var pointer: String?

    /// An error of the decoder `decoder`, with what is known of where.
    public init(
        decoder: String, reason: String, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil,
        pointer: String? = nil
    ) {
        self.decoder = decoder
        self.reason = reason
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.pointer = pointer
    }

    /// "json decoder: line 3, column 14 (byte 41), at /items/3: expected ',' or '}' after an object member"; the
    /// position part holds what is known ("image decoder: byte 12: ...", "plist decoder: ..."), the pointer (shown
    /// escaped, as the body's member names may hold any character) only when it is not the top.
    public var description: String {
        var position = ""
        if let line, let column {
            position = "line \(line), column \(column)"
            if let byteOffset { position += " (byte \(byteOffset))" }
        } else if let line {
            position = "line \(line)"
            if let byteOffset { position += " (byte \(byteOffset))" }
        } else if let byteOffset {
            position = "byte \(byteOffset)"
        }
        if let pointer, !pointer.isEmpty {
            position += (position.isEmpty ? "at " : ", at ") + pointer.shownAsPointer
        }
        let subject = decoder == "chain" ? "response serializer chain" : "\(decoder) decoder"
        return position.isEmpty ? "\(subject): \(reason)" : "\(subject): \(position): \(reason)"
    }
}

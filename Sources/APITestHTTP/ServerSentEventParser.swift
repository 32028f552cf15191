/// One event of a `text/event-stream` body, as the WHATWG HTML standard's "server-sent events" dispatches it.
package struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event` field of the event's block, `message` when it had none.
    package var event: String
    /// The `data` fields of the block joined with line feeds.
    package var data: String
    /// The last event ID when the event was dispatched (an `id` field sets it for this and later events); `nil`
    /// while no `id` field was seen.
    package var id: String?
    /// The `retry` field of the event's block when it had a valid one (ASCII digits only), in milliseconds.
    package var retry: Int?

    /// An event of type `event` carrying `data`.
    package init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

/// The event-stream interpretation of the WHATWG HTML standard (§ 9.2.6), fed bytes as they arrive.
///
/// Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next are one line
/// end); a UTF-8 byte order mark at the start of the stream is skipped; a line starting with a colon is a comment;
/// a line without a colon is a field with an empty value; one space after the colon is removed; `data` lines are
/// joined with LF; an `id` containing NULL is ignored; a `retry` that is not all ASCII digits is ignored; a blank
/// line dispatches the event when its data buffer is not empty (an event with no `data` field is not dispatched);
/// what is pending when the stream ends is discarded. Text is decoded as UTF-8 with replacement characters.
///
/// Memory is bounded: a line longer than `maximumLineLength` bytes, or an event whose data passes
/// `maximumEventSize`, stops the parser with a `Problem`.
package struct ServerSentEventParser {
    /// Why the parser stopped.
    package enum Problem: Error, Sendable, Hashable {
        /// A line passed the limit in bytes.
        case lineTooLong(limit: Int)
        /// An event's data passed the limit in bytes.
        case eventTooLarge(limit: Int)
    }

    /// The longest line read, in bytes.
    package let maximumLineLength: Int
    /// The most data bytes of one event.
    package let maximumEventSize: Int

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var lastEventID: String?
    private var retry: Int?
    /// Whether the last byte seen was a CR (an LF right after it ends no second line).
    private var afterCR = false
    /// Bytes of the stream seen so far, up to the BOM's length (the BOM is only skipped at the very start).
    private var started = false
    private var bomBytesSeen = 0
    /// The number of comment lines read.
    package private(set) var comments = 0

    /// A parser for one stream.
    package init(maximumLineLength: Int = 16 << 20, maximumEventSize: Int = 16 << 20) {
        self.maximumLineLength = maximumLineLength
        self.maximumEventSize = maximumEventSize
    }

    /// Reads `bytes`, calling `dispatch` for every event completed; `dispatch` returns false to stop reading
    /// (the rest of `bytes` is left unread). Returns false when `dispatch` stopped.
    package mutating func feed(
        _ bytes: UnsafeRawBufferPointer, dispatch: (ServerSentEvent) -> Bool
    ) throws(Problem) -> Bool {
        var index = 0
        if !started {
            // U+FEFF as UTF-8, possibly split across chunks.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            while index < bytes.count, bomBytesSeen < 3, bytes[index] == bom[bomBytesSeen] {
                bomBytesSeen += 1
                index += 1
            }
            if bomBytesSeen == 3 || index < bytes.count {
                if bomBytesSeen > 0 && bomBytesSeen < 3 {
                    // Not a BOM after all: those bytes were text.
                    line.append(contentsOf: bom[0..<bomBytesSeen])
                }
                started = true
            } else {
                return true
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A || byte == 0x0D {
                if byte == 0x0A && afterCR {
                    afterCR = false
                    continue
                }
                afterCR = byte == 0x0D
                if let event = try processLine(), !dispatch(event) { return false }
                continue
            }
            afterCR = false
            guard line.count < maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
            line.append(byte)
        }
        return true
    }

    /// Reads one line (in `line`); returns the event a blank line dispatches.
    private mutating func processLine() throws(Problem) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer {
                data.removeAll(keepingCapacity: true)
                hasData = false
                eventType = ""
                retry = nil
            }
            guard hasData else { return nil }
            if data.last == 0x0A { data.removeLast() }
            return ServerSentEvent(
                event: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
                id: lastEventID, retry: retry)
        }
        if line[0] == UInt8(ascii: ":") {
            comments += 1
            return nil
        }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count < maximumEventSize else { throw .eventTooLarge(limit: maximumEventSize) }
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                retry = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            }
        default:
            break
        }
        return nil
    }
}

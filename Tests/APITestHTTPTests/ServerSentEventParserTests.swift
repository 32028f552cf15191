import Testing

@testable import APITestHTTP

/// The event-stream interpretation against the WHATWG HTML standard's own examples (§ 9.2.6 and § 9.2.5), fed whole
/// and byte by byte (every chunk boundary, a CRLF split between chunks included).
@Suite struct ServerSentEventParserTests {
    /// The events of `text`, fed whole and then one byte at a time; both must agree.
    private func events(_ text: String, bytes: [UInt8]? = nil) throws -> [ServerSentEvent] {
        let input = bytes ?? Array(text.utf8)
        var whole: [ServerSentEvent] = []
        var parser = ServerSentEventParser()
        _ = try input.withUnsafeBytes {
            try parser.feed($0) {
                whole.append($0)
                return true
            }
        }
        var split: [ServerSentEvent] = []
        var bytewise = ServerSentEventParser()
        for byte in input {
            _ = try [byte].withUnsafeBytes {
                try bytewise.feed($0) {
                    split.append($0)
                    return true
                }
            }
        }
        #expect(whole == split)
        return whole
    }

    @Test func dataLinesJoinWithLineFeeds() throws {
        // "data: YHOO / data: +2 / data: 10": one message event.
        #expect(try events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func commentsIDsAndAPendingEventAtTheEnd() throws {
        // The standard's second example: a comment, an id, an empty id, and a last block never dispatched.
        let found = try events(
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n")
        #expect(
            found == [
                ServerSentEvent(data: "first event", id: "1"), ServerSentEvent(data: "second event", id: ""),
            ])
    }

    @Test func emptyDataAndFieldsWithoutColon() throws {
        // "data" alone is a data field with an empty value; the middle block's data is one newline.
        let found = try events("data\n\ndata\ndata\n\ndata:\n")
        #expect(found == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    @Test func oneSpaceAfterTheColonIsRemoved() throws {
        #expect(
            try events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test func eventTypeRetryAndTheirReset() throws {
        let found = try events("event: add\nretry: 1500\ndata: 73857293\n\nretry: 1x\ndata: x\n\n")
        #expect(found == [ServerSentEvent(event: "add", data: "73857293", retry: 1500), ServerSentEvent(data: "x")])
    }

    @Test func everyLineEndingAndTheByteOrderMark() throws {
        let crlf = try events("\u{FEFF}id: 7\r\ndata: a\r\n\r\ndata: b\rdata: c\r\rdata: d\n\n")
        #expect(
            crlf == [
                ServerSentEvent(data: "a", id: "7"), ServerSentEvent(data: "b\nc", id: "7"),
                ServerSentEvent(data: "d", id: "7"),
            ])
        // Only one BOM is skipped: a second one is part of the field name, which is then unknown.
        #expect(try events("\u{FEFF}\u{FEFF}data: x\n\ndata: y\n\n") == [ServerSentEvent(data: "y")])
    }

    @Test func anIDWithNullIsIgnoredAndUnknownFieldsToo() throws {
        let found = try events("id: 1\n\nid: a\u{0}b\nfoo: bar\ndata: z\n\n")
        #expect(found == [ServerSentEvent(data: "z", id: "1")])
    }

    @Test func invalidUTF8IsReplaced() throws {
        let found = try events("", bytes: Array("data: ".utf8) + [0xFF] + Array("\n\n".utf8))
        #expect(found == [ServerSentEvent(data: "\u{FFFD}")])
    }

    @Test func aLineOverTheLimitStopsTheParser() {
        var parser = ServerSentEventParser(maximumLineLength: 8)
        #expect(throws: ServerSentEventParser.Problem.lineTooLong(limit: 8)) {
            _ = try Array("data: 0123456789\n".utf8).withUnsafeBytes { try parser.feed($0) { _ in true } }
        }
    }

    @Test func theReaderStopsTheStream() throws {
        var parser = ServerSentEventParser()
        var seen: [String] = []
        let going = try Array("data: 1\n\ndata: 2\n\ndata: 3\n\n".utf8).withUnsafeBytes {
            try parser.feed($0) { event in
                seen.append(event.data)
                return event.data != "2"
            }
        }
        #expect(!going)
        #expect(seen == ["1", "2"])
    }

    @Test func jsonLinesAndSequences() throws {
        var lines = JSONLinesSplitter()
        var records: [String] = []
        _ = try Array("{\"a\":1}\r\n\n  {\"a\":2}\n{\"a\":3}".utf8).withUnsafeBytes {
            try lines.feed($0) {
                records.append($0)
                return true
            }
        }
        if let last = lines.finish() { records.append(last) }
        #expect(records == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#])
        var sequence = JSONLinesSplitter(framing: .sequence)
        var items: [String] = []
        _ = try Array("\u{1E}{\"b\":1}\n\u{1E}[2]\n".utf8).withUnsafeBytes {
            try sequence.feed($0) {
                items.append($0)
                return true
            }
        }
        if let last = sequence.finish() { items.append(last) }
        #expect(items == [#"{"b":1}"#, "[2]"])
    }
}

import Testing

@testable import APITestHTTP

/// The header fields read, on the caller's thread, from the field lines the loop thread copied
/// (`TaskDelegate.headerBlock`: each line without its line ending, followed by `\n`). Real responses read through
/// libcurl are covered by the session tests against nginx and the demo; folded lines, which no server here sends,
/// are covered here.
@Suite struct HeaderFieldLinesTests {
    private func fields(_ lines: [String]) -> [HTTPHeaders.Field] {
        HTTPHeaders(fieldLines: lines.flatMap { Array($0.utf8) + [UInt8(ascii: "\n")] }).fields
    }

    @Test func readsNamesAndTrimmedValuesInOrderWithRepeatsKept() {
        let read = fields(["Content-Type:  application/json \t", "Set-Cookie: a=1", "set-cookie:b=2", "X-Empty:"])
        #expect(
            read == [
                .init(name: "Content-Type", value: "application/json"), .init(name: "Set-Cookie", value: "a=1"),
                .init(name: "set-cookie", value: "b=2"), .init(name: "X-Empty", value: ""),
            ])
    }

    @Test func joinsFoldedLinesAndLeavesOutLinesWithoutAColon() {
        let read = fields([
            " stray fold before any field", "X-Long: first", "   second ", "\tthird", "not a field line",
            "X-Next: n:m",
        ])
        #expect(read == [.init(name: "X-Long", value: "first second third"), .init(name: "X-Next", value: "n:m")])
    }

    @Test func readsBytesThatAreNotUTF8AsReplacementCharacters() {
        let block = Array("X-Bytes: a".utf8) + [0xFF] + Array("b\n".utf8)
        #expect(HTTPHeaders(fieldLines: block)["x-bytes"] == "a\u{FFFD}b")
    }

    @Test func readsALastLineWithoutItsNewline() {
        #expect(
            HTTPHeaders(fieldLines: Array("A: 1\nB: 2".utf8)).fields == [
                .init(name: "A", value: "1"), .init(name: "B", value: "2"),
            ])
    }

    @Test func anEmptyBlockHasNoFields() {
        #expect(HTTPHeaders(fieldLines: []).isEmpty)
        #expect(HTTPHeaders(fieldLines: Array("\n\n".utf8)).isEmpty)
    }
}

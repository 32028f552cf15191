import Testing

@testable import APITestHTTP

/// The one grammar of received field lines (`FieldLineReader`), which both the lookup by name and the list of
/// fields read: each line's kind and bytes, and the lookup's shortcut for a plain name against reading every line.
@Suite struct FieldLineReaderTests {
    /// A line as the reader gave it, as text: `field(name, value)` or `fold(text)`.
    private enum Read: Equatable {
        case field(String, String)
        case fold(String)
    }

    private func lines(_ block: [UInt8]) -> [Read] {
        block.withUnsafeBufferPointer { bytes in
            var reader = FieldLineReader(bytes)
            var read: [Read] = []
            while let line = reader.next() {
                switch line {
                case .field(let name, let value):
                    read.append(.field(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                case .fold(let text): read.append(.fold(String(decoding: text, as: UTF8.self)))
                }
            }
            return read
        }
    }

    private func lines(_ text: String) -> [Read] {
        lines(Array(text.utf8))
    }

    // MARK: - Lines

    @Test func readsFieldsWithTrimmedValuesAndUntrimmedNames() {
        #expect(
            lines("Content-Type:  application/json \t\nX-Empty:\nX-Colons: a:b: c\n X: y\n") == [
                .field("Content-Type", "application/json"), .field("X-Empty", ""), .field("X-Colons", "a:b: c"),
                .fold("X: y"),
            ])
        // A name's own blanks stay: only the value is trimmed.
        #expect(lines("X-Blank :v\n") == [.field("X-Blank ", "v")])
    }

    @Test func givesFoldedLinesTrimmedAndLeavesOutEmptyLinesAndLinesWithoutAColon() {
        #expect(
            lines(" stray fold\nX-Long: first\n   second \n\n\tthird\nnot a field line\n\t\nX-Next: n\n") == [
                .fold("stray fold"), .field("X-Long", "first"), .fold("second"), .fold("third"), .fold(""),
                .field("X-Next", "n"),
            ])
        #expect(lines("") == [])
        #expect(lines("\n\n") == [])
        #expect(lines("no colon") == [])
        #expect(lines(": no name\n") == [.field("", "no name")])
    }

    @Test func keepsRepeatedFieldsAndALastLineWithoutItsNewline() {
        #expect(
            lines("Set-Cookie: a=1\nset-cookie: b=2\nSET-COOKIE:c=3") == [
                .field("Set-Cookie", "a=1"), .field("set-cookie", "b=2"), .field("SET-COOKIE", "c=3"),
            ])
    }

    @Test func readsNamesAndValuesThatAreNotASCIIByteForByte() {
        #expect(lines("Ü-Name: ümlaut\nX-Ä:ä \n") == [.field("Ü-Name", "ümlaut"), .field("X-Ä", "ä")])
        let block = Array("X-".utf8) + [0xFF] + Array(": v".utf8) + [0xFE] + Array("\n".utf8)
        #expect(lines(block) == [.field("X-\u{FFFD}", "v\u{FFFD}")])
    }

    /// libcurl's line endings are cut before the lines are kept (`TaskDelegate`); a carriage return left inside a
    /// line is a byte of it like any other (not a blank, not a line end).
    @Test func keepsACarriageReturnAsAByteOfItsLine() {
        #expect(
            lines("A: 1\r\nB:\r2\nC\r: 3\n\r\n") == [
                .field("A", "1\r"), .field("B", "\r2"), .field("C\r", "3"),
            ])
        #expect(HTTPHeaders(fieldLines: Array("A: 1\r\n".utf8))["a"] == "1\r")
        #expect(HTTPHeaders(fieldLines: Array("A: 1\r\n".utf8)).fields == [.init(name: "A", value: "1\r")])
    }

    // MARK: - The lookup's shortcut

    /// The bytes of `text` with ASCII capitals made small (how names compare).
    private static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }

    /// `nextValue(ofPlainName:)` skips lines without searching them for a colon; it must find, in turn, the values
    /// of the field lines `next()` gives whose names are the name.
    @Test func theShortcutForAPlainNameFindsWhatReadingEveryLineFinds() {
        let blocks =
            [
                "Server: nginx\nContent-Type: application/json\nContent-Length: 41\n",
                "content-type:text/plain \t\nCONTENT-TYPE: second\n Content-Type: fold\n",
                "X-Long: a\nno colon here\n b\nX-Long: c\n\n\td\nX-Long\nX-Long:\n",
                "X-LongX: v\nX-Lon:g: w\nx-long:x\n:\nX-Long: y\n: empty name\n",
                "Ü-Name: u\nX-Ä: a\nX-Long: z",
                "", "\n", "X-Long", "X-Long:",
            ].map { Array($0.utf8) } + [Array("X-".utf8) + [0xFF] + Array(": v\nX-Long: w\n".utf8)]
        let names = ["Content-Type", "content-type", "X-Long", "x-lon", "X-LongX", "", " Content-Type", "Missing"]
        for block in blocks {
            for name in names {
                let wanted = Array(name.utf8)
                let expected = lines(block).compactMap { line -> String? in
                    guard case .field(let fieldName, let value) = line, Self.folded(fieldName) == Self.folded(name)
                    else { return nil }
                    return value
                }
                let found = block.withUnsafeBufferPointer { bytes in
                    wanted.withUnsafeBufferPointer { wanted in
                        #expect(FieldLineReader.isPlainName(wanted))
                        var reader = FieldLineReader(bytes)
                        var found: [String] = []
                        while let value = reader.nextValue(ofPlainName: wanted) {
                            found.append(String(decoding: value, as: UTF8.self))
                        }
                        return found
                    }
                }
                #expect(found == expected, "\(name) in \(String(decoding: block, as: UTF8.self))")
            }
        }
    }

    @Test func onlyASCIINamesWithoutAColonArePlain() {
        for (name, plain) in [("Content-Type", true), ("", true), (" x", true), ("a:b", false), ("Ü", false)] {
            #expect(Array(name.utf8).withUnsafeBufferPointer(FieldLineReader.isPlainName) == plain, "\(name)")
        }
    }
}

import Testing

@testable import APITestHTTP

/// A received response's header fields are looked up by name in the field lines as libcurl delivered them, without
/// making the list of fields; the lookups must find what a lookup in that list finds, folded lines, lines without a
/// colon, repeated fields, names in any case and bytes that are not UTF-8 included.
@Suite struct ReceivedFieldLinesTests {
    /// Blocks of field lines, each line followed by `\n` as `TaskDelegate.headerBlock` holds them.
    private static let blocks: [[UInt8]] =
        [
            "Server: nginx\nContent-Type: application/json\nContent-Length: 41\n",
            "content-type:text/plain; charset=utf-8 \t\nCONTENT-TYPE: second\n",
            " stray fold\nX-Long: first\n   second \n\tthird\nnot a field line\nX-Next: n:m\n",
            "X-Long: a\nno colon here\n b\nX-Long: c\n\n\td\n",
            "Set-Cookie: a=1\nset-cookie: b=2\nSET-COOKIE:c=3\nX-Empty:\n",
            "A: 1\nB: 2",
            "",
            "\n\n",
            ": no name\nX: y\n",
            "Ü-Name: umlaut\nX-Ä: a\n",
            "X-LongX: v\nX-Lon:g: w\nx-long:x\nX-Long\n:\nX-Long: y\n",
        ].map { Array($0.utf8) } + [
            Array("X-Bytes: a".utf8) + [0xFF] + Array("b\n".utf8),
            Array("X-".utf8) + [0xFF] + Array(": bad name\nX-\u{FFFD}: replacement\n".utf8),
        ]

    private static let names = [
        "Server", "content-type", "Content-Type", "X-Long", "x-next", "set-cookie", "X-Empty", "A", "B", "", "X",
        "Ü-Name", "ü-name", "X-Ä", "X-Bytes", "X-\u{FFFD}", "Missing", "Content-Typ", "not a field line", "X-Lon",
        "X-Lon:g", "X-Long:", "X-LongX", ":",
    ]

    /// Names compare byte for byte but for the case of ASCII letters (`Ü` and `ü` differ).
    private static func sameName(_ a: String, _ b: String) -> Bool {
        func folded(_ text: String) -> [UInt8] {
            text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        }
        return folded(a) == folded(b)
    }

    @Test func lookingUpANameFindsWhatTheListOfFieldsHolds() {
        for block in Self.blocks {
            let list = ReceivedFieldLines.fields(of: block)
            for name in Self.names {
                let expected = list.filter { Self.sameName($0.name, name) }.map(\.value)
                let headers = HTTPHeaders(fieldLines: block)
                #expect(headers.values(for: name) == expected, "\(name) in \(String(decoding: block, as: UTF8.self))")
                #expect(headers[name] == expected.first, "\(name) in \(String(decoding: block, as: UTF8.self))")
                #expect(headers.contains(name) == !expected.isEmpty)
                // The same answers once the list is made.
                #expect(headers.fields == list)
                #expect(headers.values(for: name) == expected)
                #expect(headers[name] == expected.first)
            }
        }
    }

    @Test func aLookupByNameMakesNoListOfFields() throws {
        let lines = ReceivedFieldLines(Array("Date: today\nContent-Type: application/json\nETag: \"1\"\n".utf8))
        let headers = HTTPHeaders(lines: lines)
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values(for: "ETag") == ["\"1\""])
        #expect(!lines.madeList)
        #expect(headers.count == 3)
        #expect(lines.madeList)
        #expect(headers.map(\.name) == ["Date", "Content-Type", "ETag"])
    }

    @Test func receivedFieldsCompareAndChangeAsAList() {
        var received = HTTPHeaders(fieldLines: Array("A: 1\nb: 2\nA: 3\n".utf8))
        let listed: HTTPHeaders = ["A": "1", "b": "2", "A": "3"]
        #expect(received == listed)
        #expect(received.hashValue == listed.hashValue)
        let copy = received
        received.set(name: "a", value: "9")
        #expect(received.fields == [.init(name: "a", value: "9"), .init(name: "b", value: "2")])
        received.add(name: "C", value: "4")
        received.remove(name: "B")
        #expect(received.fields == [.init(name: "a", value: "9"), .init(name: "C", value: "4")])
        // The copy taken before still holds the lines as received.
        #expect(copy.values(for: "a") == ["1", "3"])
        #expect(copy.count == 3)
    }
}

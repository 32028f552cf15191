import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// A long suite is composed in parts on several cores (`YAMLComposer.composeInParts`): whenever it gives a document,
/// that document is the one `YAMLComposer.compose(_:)` makes of the whole text, table for table; whenever a part
/// cannot stand alone, it gives none and the loader composes on one thread.
@Suite struct YAMLComposerPartsTests {
    /// Items of many shapes, some written to trap a cut: block scalars and multi-line plain, quoted and flow
    /// values whose lines look like items, comments and blank lines between items, tags, anchors and aliases inside
    /// an item, non-ASCII text, long and one-line quoted scalars.
    static func item(_ index: Int) -> String {
        switch index % 12 {
        case 0: "  - name: item \(index)\n    request: {url: \"items/\(index).json\"}\n"
        case 1: "  - name: literal \(index)\n    body: |\n      - not an item\n      line two\n  \n    tag: x\n"
        case 2: "  - name: folded \(index)\n    body: >-\n      folded\n\n      - text\n"
        case 3: "  - name: \"quoted over\n  - lines \(index)\"\n"
        case 4: "  - name: 'single\n  - quoted \(index)'\n    note: it''s\n"
        case 5: "  - name: flow \(index)\n    list: [a,\n  b, {c: d,\n  e: f}]\n"
        case 6: "  # a comment\n  - name: plain \(index)\n    text: one\n      two\n\n  # - commented item\n"
        case 7: "  - name: !!str \(index)\n    value: !custom {a: !!int \"1\"}\n    other: ! 5\n"
        case 8:
            "  - name: anchors \(index)\n    base: &b\(index) {k: v}\n    use: *b\(index)\n    again: &b\(index) 2\n"
        case 9: "  - name: ünïcödé ✓ \(index)\n    q: \"\(String(repeating: "é", count: 40))\"\n"
        case 10: "  -\n    name: dash alone \(index)\n  - - nested\n    - list\n"
        default: "  - ? complex key \(index)\n    : value\n    k: \"\(String(repeating: "w", count: 300))\"\n"
        }
    }

    static func suite(count: Int, indent: String = "  ", lineBreak: String = "\n", head: String = "") -> String {
        var text = head + "name: parts\nbaseURL: http://127.0.0.1:9/\ntests:\n"
        for index in 0..<count {
            var item = item(index)
            if indent != "  " {
                item = item.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.hasPrefix("  ") ? indent + line.dropFirst(2) : String(line)
                }.joined(separator: "\n")
            }
            text += item
        }
        return lineBreak == "\n" ? text : text.replacingOccurrences(of: "\n", with: lineBreak)
    }

    /// Composes `text` in `parts` parts and on one thread; when the parts give a document, it must be the same.
    /// Returns whether they gave one.
    @discardableResult
    private func expectSameAsOneThread(
        _ text: String, parts: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let serial = Result { () throws(YAMLComposeError) in try YAMLComposer.compose(text) }
        guard let inParts = YAMLComposer.composeInParts(text, parts: parts, minimumBytes: 0) else { return false }
        guard case .success(let whole) = serial else {
            Issue.record("the parts composed a text that does not compose", sourceLocation: sourceLocation)
            return true
        }
        Self.expectIdentical(inParts, whole, sourceLocation: sourceLocation)
        return true
    }

    static func expectIdentical(
        _ lhs: (document: YAMLDocument, root: YAMLNode?), _ rhs: (document: YAMLDocument, root: YAMLNode?),
        sourceLocation: SourceLocation
    ) {
        let (a, b) = (lhs.document, rhs.document)
        #expect(lhs.root == rhs.root, sourceLocation: sourceLocation)
        #expect(a.records.count == b.records.count, sourceLocation: sourceLocation)
        if let index = a.records.indices.first(where: { $0 < b.records.count && !same(a.records[$0], b.records[$0]) }) {
            Issue.record(
                "node \(index) differs: \(a.records[index]) against \(b.records[index])", sourceLocation: sourceLocation
            )
        }
        #expect(a.children == b.children, sourceLocation: sourceLocation)
        #expect(a.scalarBytes == b.scalarBytes, sourceLocation: sourceLocation)
        #expect(a.tagNames == b.tagNames && a.coreTags == b.coreTags, sourceLocation: sourceLocation)
        #expect(a.overflowTags == b.overflowTags, sourceLocation: sourceLocation)
        #expect(a.overflowWidths == b.overflowWidths, sourceLocation: sourceLocation)
    }

    private static func same(_ a: YAMLDocument.Record, _ b: YAMLDocument.Record) -> Bool {
        a.kind == b.kind && a.style == b.style && a.isInKey == b.isInKey && a.tag == b.tag && a.width == b.width
            && a.line == b.line && a.column == b.column && a.start == b.start && a.count == b.count
    }

    @Test(arguments: [2, 3, 4, 5, 8])
    func partsGiveTheOneThreadDocument(parts: Int) {
        // Many lengths, so that the cuts fall on every kind of item and inside the traps.
        var composedInParts = 0
        for count in stride(from: 13, through: 120, by: 1) {
            if expectSameAsOneThread(Self.suite(count: count), parts: parts) { composedInParts += 1 }
        }
        // Most texts find a cut between two plain items; the traps only send some back to one thread.
        #expect(composedInParts > 60)
    }

    @Test func aPlainLongSuiteIsComposedInParts() {
        var text = "tests:\n"
        for index in 0..<2_000 { text += "  - name: item \(index)\n    request: {url: \"items/\(index)\"}\n" }
        #expect(text.utf8.count < YAMLComposer.partsThreshold)
        #expect(expectSameAsOneThread(text, parts: 4))
        #expect(expectSameAsOneThread(text, parts: 8))
        #expect(YAMLComposer.composeInParts(text, parts: 4).map { _ in true } == nil, "too short by default")
        #expect(YAMLComposer.composeInParts(text, parts: 1, minimumBytes: 0).map { _ in true } == nil, "one core")
    }

    @Test func otherLayoutsAreComposedInPartsToo() {
        // An indentless list, a deeper one, CRLF line breaks, a byte-order mark and a document start before it.
        // (The many-shaped items written without indent put flow and quoted lines at the first column, which gets
        // no plan: they are only held to the one-thread document.)
        expectSameAsOneThread(Self.suite(count: 60, indent: ""), parts: 3)
        let texts = [
            "tests:\n" + (0..<200).map { "- name: n\($0)\n  request: {url: \"u/\($0)\"}\n" }.joined(),
            Self.suite(count: 60, indent: "      "),
            Self.suite(count: 60, lineBreak: "\r\n"), "---\n# suite\n" + Self.suite(count: 60),
            "\u{feff}# suite\n" + Self.suite(count: 60),
            "tests:   # the list\n\n  # first\n" + (0..<200).map { "  - {name: \"n\($0)\"}\n" }.joined(),
        ]
        for text in texts {
            #expect(expectSameAsOneThread(text, parts: 3))
        }
    }

    @Test func textsAPartCannotStandForAreComposedOnOneThread() {
        let items = (0..<200).map { "  - name: n\($0)\n    request: {url: \"u/\($0)\"}\n" }.joined()
        let texts = [
            // Keys after the list, aliases to an anchor before the cut, a second document, a lone carriage return
            // or a line separator (libyaml counts lines differently), a problem in a later part.
            "tests:\n" + items + "teardown:\n  - x\n",
            "base: &b {k: v}\ntests:\n" + items + "  - use: *b\n",
            "tests:\n" + items + "---\ntests: []\n",
            "tests:\n" + items + "  - name: cr\r  - x\n",
            "tests:\n" + items + "  - name: \"ls\u{2028}x\"\n",
            "tests:\n" + items + "  - name: [unclosed\n",
            "tests:\n" + items + "  - a: 1\n    a: 2\n",
            // No list to cut: a flow list, a list of another key, a tagged list.
            "tests: [" + (0..<400).map { "n\($0)" }.joined(separator: ",\n  ") + "]\n",
            "other:\n" + items,
            "tests: !!seq\n" + items,
        ]
        for text in texts {
            #expect(!expectSameAsOneThread(text, parts: 4), "\(text.prefix(40))…")
        }
    }

    /// Texts no part could stand for are found from their lines, before any part is composed: a key or a document
    /// marker after the list, a lone carriage return. A list at the first column still gets a plan.
    @Test func textsWithoutAPlan() {
        let items = (0..<200).map { "  - name: n\($0)\n" }.joined()
        func plan(_ text: String) -> YAMLPartPlan? {
            var text = text
            return text.withUTF8 { YAMLPartPlan($0, parts: 4) }
        }
        #expect(plan("tests:\n" + items) != nil)
        #expect(plan("tests:\n" + items.replacingOccurrences(of: "  - ", with: "- ")) != nil)
        #expect(plan("tests:\n" + items + "# a comment\n\n") != nil)
        #expect(plan("tests:\n" + items + "teardown:\n  - x\n") == nil)
        #expect(plan("tests:\n" + items + "...\n") == nil)
        #expect(plan("tests:\n" + items + "  - a: 'b\rc'\n") == nil)
        #expect(plan("other:\n" + items) == nil)
        // A directive changes what tags mean: the later parts would not know it.
        #expect(plan("%TAG ! tag:yaml.org,2002:\n---\ntests:\n" + items) == nil)
        // A line at the first column of a list written there must start an item.
        #expect(plan("tests:\n" + items.replacingOccurrences(of: "  - ", with: "- ") + "-foo: 1\n") == nil)
    }

    /// A part is nested one level less deeply than in the whole text: one nested up to the limit is joined, and one
    /// past it goes back to one core, which reports where the whole text passes the limit.
    @Test func aPartNestedPastTheLimitIsComposedOnOneThread() throws {
        let items = (0..<400).map { "  - name: n\($0)\n" }.joined()
        // An item's value is at level 4 of the whole text (the root map, `tests`, the item, `deep`).
        func text(_ levels: Int) -> String {
            "tests:\n" + items + "  - deep: " + String(repeating: "[", count: levels)
                + String(repeating: "]", count: levels) + "\n"
        }
        #expect(try YAMLComposer.compose(text(253)).root != nil)
        #expect(expectSameAsOneThread(text(253), parts: 2))
        #expect(throws: YAMLComposeError.tooDeep(line: 402, column: 264)) { try YAMLComposer.compose(text(254)) }
        #expect(YAMLComposer.composeInParts(text(254), parts: 2, minimumBytes: 0) == nil)
    }

    /// More distinct tags than a record's 16 bits number: the parts' tags are renumbered into the whole document's.
    @Test func tagsPastTheRecordsNumbersAreRenumbered() {
        let text = "tests:\n" + (0..<40_000).map { "  - !t\($0 % 35_000) x\($0)\n" }.joined()
        #expect(expectSameAsOneThread(text, parts: 4))
    }

    /// The loader composes a long file in parts and gives the suite it gives on one thread.
    @Test func theLoaderGivesTheSameSuite() throws {
        let text = ParallelTestParsingTests.suiteText(count: 3_000)
        #expect(text.utf8.count >= YAMLComposer.partsThreshold)
        #expect(YAMLComposer.composeInParts(text, parts: 2).map { _ in true } == true)
        var loader = SuiteLoader(environment: [:])
        let parallel = try loader.load(source: text, file: "/tmp/parts.yaml")
        loader.parsesTestsInParallel = false
        let serial = try loader.load(source: text, file: "/tmp/parts.yaml")
        #expect(parallel.tests == serial.tests)
    }

    /// The first part reserves room for the whole text (`compose(_:of:reservingFor:)`), so that the others are
    /// appended to its tables in place: the room changes nothing in the document, for texts whose scalars outgrow
    /// their source (`\L`, `\U…` escapes) too, and the joined tables did not have to move.
    @Test func roomForTheWholeTextChangesNoDocument() {
        let texts = [
            Self.suite(count: 40), "a: \"\\L\\L\\L\\U0001F642\"\nb: [\"\\L\", {c: \"\\P\"}]\n", "", "x", "- \"\\L\"\n",
        ]
        for text in texts {
            var bytes = text
            bytes.makeContiguousUTF8()
            bytes.withUTF8 { buffer in
                let plain = YAMLComposer.compose(buffer, of: text)
                for room in [buffer.count * 4, buffer.count + 1, 1 << 20] {
                    let reserved = YAMLComposer.compose(buffer, of: text, reservingFor: room)
                    switch (plain, reserved) {
                    case (.success(let a), .success(let b)):
                        Self.expectIdentical(b, a, sourceLocation: #_sourceLocation)
                        #expect(b.document.records.capacity >= room / 4)
                    default:
                        Issue.record("\(text): \(plain) against \(reserved)")
                    }
                }
            }
        }
        var text = ""
        for index in 0..<2_000 { text += "  - name: item \(index)\n    request: {url: \"items/\(index)\"}\n" }
        text = "tests:\n" + text
        guard let joined = YAMLComposer.composeInParts(text, parts: 2, minimumBytes: 0) else {
            Issue.record("no parts")
            return
        }
        // Room for one node every 4 bytes of the whole text, the first part's: the nodes of both parts fit in it.
        #expect(joined.document.records.capacity >= text.utf8.count / 4)
        #expect(joined.document.records.count <= text.utf8.count / 4)
    }
}

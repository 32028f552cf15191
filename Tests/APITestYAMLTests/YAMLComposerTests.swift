import Testing
import Yams

@testable import APITestYAML

/// `YAMLComposer` must compose exactly what `Yams.compose(yaml:_:)` with `Resolver.basic` composes (the loader
/// used it before): the same nodes, marks, styles and scalar typing, and the same errors at the same places; except
/// that keys compare by code points, where Yams compares them as `String`s (canonical equivalence).
@Suite("YAML composer")
struct YAMLComposerTests {
    static let documents: [String] = [
        "",
        "# only a comment\n",
        "hello\n",
        "~\n",
        "- a\n- 'b'\n- \"c\"\n- |\n  d\n- >\n  e\n",
        "a: 1\nb: [1, 2.5, .inf, -.inf, .nan, 0x1F, 0o17, -0, +3, 1e3, true, False, ~, null, yes, '']\n",
        "tests:\n  - name: a\n    request: {url: \"items/1.json\", headers: {X-N: \"1\"}}\n",
        // Tags: explicit, non-specific, unknown; quoted scalars are `str`.
        "a: !!str 12\nb: ! 12\nc: !foo 12\nd: !!int \"13\"\ne: !!float 2\nf: !!bool true\ng: !!null ''\nh: !!int x\n",
        // Keys resolve their tags (and aliases of them share that): `*k` below is a string, not a number.
        "&k 5: x\ny: *k\n! 7: a\n!foo 8: b\n",
        "? &c [1, {a: 2}]\n: x\nd: *c\n",
        // Anchors, aliases, redefinition, merge keys.
        "a: &x 1\nb: *x\nc: &x 2\nd: *x\n",
        "base: &b {k: v, n: 1}\nuse:\n  <<: *b\n  n: 2\nlist:\n  <<: [*b, {z: 1}]\n",
        "- &s [1, 2]\n- *s\n- [*s, *s]\n",
        // Duplicate keys.
        "a: 1\na: 2\n",
        "b: 1\na: 2\nb: 3\na: 4\n",
        "a: 1\n\"a\": 2\n",
        "a: 1\n!!int 1: 2\n1: 3\n",
        "1: a\n!!int 1: b\n!!int 1: c\n",
        "? [a, b]\n: 1\n? [a, b]\n: 2\n",
        "? {a: b}\n: 1\n? {a: b}\n: 2\n",
        "x: &a {k: v}\ny:\n  *a : 1\n  ? {k: v}\n  : 2\n",
        // ASCII keys that differ are never the same. (Keys that are only canonically equivalent, "e\u{301}" and
        // "\u{e9}", the Kelvin sign and K, are one key to Yams and two here: CodePointKeyLoaderTests.)
        "ab: 1\nAb: 2\naB: 3\n\"\u{e9}\": 4\n",
        "m:\n" + (0..<40).map { "  k\($0): \($0)\n" }.joined() + "  k7: again\n",
        "m:\n" + (0..<40).map { "  ? [\($0)]\n  : \($0)\n" }.joined() + "  ? [7]\n  : again\n",
        "a:\n  b: 1\n  b: 2\nc: [\n",
        "a: [\nb: 1\nb: 2\n",
        // Syntax errors, aliases to nothing, several documents.
        "tests: [a, b\n\n\n",
        "tests:\n  - name: \"abc\n",
        "a: b: c\n",
        "tests:\n\t- name: a\n",
        "tests: *nope\n",
        "a: &x [1, *x]\n",
        "tests: []\n---\nfoo: bar\n",
        "---\ntests: []\n...\n",
        "tests: []\n---\n[\n",
        "a: 1\n b: 2\n",
        "{a: 1, b\n",
        "- a\nb: c\n",
        // Reader errors.
        "tests:\n  - name: a\u{1}b\n",
        "tests:\n  - name: \u{e9}\u{1}b\n",
        // Line breaks libyaml counts that a plain line split does not, and a byte-order mark.
        "a: 'x'\rb: \"y\"\r\n",
        "a: 1\u{2028}b: 'two'\n",
        "\u{feff}a: \"x\"\n",
        // Quoted scalars over several lines, escapes, unicode.
        "a: \"one\n  two\"\nb: 'it''s'\nc: \"q\\\"q\"\nd: \"\\x41\\u00e9\"\ne: caf\u{e9} \u{2615}\n",
    ]

    /// When a map repeats keys of different kinds, Yams' choice of the one to report depends on the process's hash
    /// seed (its `<` leaves them unordered); the composer reports the first in the document.
    @Test func duplicateKeysOfDifferentKinds() {
        let text = "? {a: b}\n: 1\n? {a: b}\n: 2\nc: 1\nc: 2\n"
        #expect(throws: YAMLComposeError.duplicateKey("<uncovertable>", line: 1, column: 3)) {
            try YAMLComposer.compose(text)
        }
    }

    /// Tags are numbered in 16 bits in a node's record; a document with more distinct tags keeps the others aside,
    /// and they type scalars and tell keys apart as before.
    @Test func moreDistinctTagsThanTheRecordNumbers() throws {
        var text = (0..<40_000).map { "- !t\($0) x\n" }.joined()
        text += "- !!int 5\n- \"5\"\n- !!str 6\n- ! 7\n- {!!int 1: a, \"1\": b}\n- !t39999 last\n"
        let (document, root) = try YAMLComposer.compose(text)
        let items = Array(try #require(root.flatMap { document.items(of: $0) }))
        #expect(items.count == 40_006)
        let tail = Array(items.suffix(6))
        #expect(document.scalar(tail[0])?.tag == .int)
        #expect(document.scalar(tail[1])?.tag == .str)
        #expect(document.scalar(tail[2])?.tag == .str)
        #expect(document.scalar(tail[3])?.tag == YAMLDocument.CoreTag.none)
        #expect(document.pairs(of: tail[4])?.count == 2)
        #expect(document.tagIndex(of: tail[5]) == document.tagIndex(of: items[39_999]))
        #expect(document.tagNames[try #require(document.tagIndex(of: tail[5]))] == "!t39999")
        #expect(throws: YAMLComposeError.self) { try YAMLComposer.compose(text + "- {!!int 1: a, !!int 1: b}\n") }
    }

    @Test(arguments: documents)
    func composesLikeYams(_ text: String) throws {
        let expected = Result { try Yams.compose(yaml: text, .basic) }
        let actual = Result { () throws(YAMLComposeError) in try YAMLComposer.compose(text) }
        switch (expected, actual) {
        case (.success(let root), .success(let composed)):
            switch (root, composed.root) {
            case (nil, nil): break
            case (let root?, let node?): expectSame(root, node, in: composed.document)
            default: Issue.record("one document is empty and the other is not")
            }
        case (.failure(let error), .failure(let composeError)):
            #expect(composeError == Self.converted(error))
        case (.success, .failure(let error)):
            Issue.record("Yams composes the text, the composer fails with \(error)")
        case (.failure(let error), .success):
            Issue.record("the composer composes the text, Yams fails with \(error)")
        }
    }

    /// Compares a Yams node with a composed node, recursively.
    private func expectSame(_ node: Node, _ composed: YAMLNode, in document: YAMLDocument) {
        let mark = document.mark(of: composed)
        #expect(node.mark?.line == mark.line && node.mark?.column == mark.column, "mark of \(node)")
        switch node {
        case .scalar(let scalar):
            guard let mine = document.scalar(composed) else {
                Issue.record("expected a scalar for \(node)")
                return
            }
            #expect(mine.string == scalar.string)
            #expect(mine.style.rawValue == UInt8(scalar.style.rawValue))
            #expect(mine.tag == Self.coreTag(scalar.tag.rawValue), "tag of \(scalar.string)")
        case .sequence(let sequence):
            guard let items = document.items(of: composed), items.count == sequence.count else {
                Issue.record("expected a list of \(sequence.count) for \(node)")
                return
            }
            for (item, mine) in zip(sequence, items) { expectSame(item, mine, in: document) }
        case .mapping(let mapping):
            guard let pairs = document.pairs(of: composed), pairs.count == mapping.count else {
                Issue.record("expected a map of \(mapping.count) for \(node)")
                return
            }
            for (pair, mine) in zip(mapping, pairs) {
                expectSame(pair.key, mine.key, in: document)
                expectSame(pair.value, mine.value, in: document)
            }
        case .alias:
            Issue.record("Yams left an alias in the tree")
        }
    }

    /// The core tag a Yams tag name types a scalar as; an implicit, non-specific or unknown tag is `.none`.
    private static func coreTag(_ name: String) -> YAMLDocument.CoreTag {
        switch Tag.Name(rawValue: name) {
        case .str: .str
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .float: .float
        default: .none
        }
    }

    /// A Yams error as the composer reports it.
    private static func converted(_ error: any Error) -> YAMLComposeError? {
        guard let error = error as? YamlError else { return nil }
        func context(_ context: YamlError.Context?) -> YAMLComposeError.Context? {
            context.map { .init(text: $0.text, line: $0.mark.line, column: $0.mark.column) }
        }
        switch error {
        case .scanner(let ctx, let problem, let mark, _), .parser(let ctx, let problem, let mark, _),
            .composer(let ctx, let problem, let mark, _):
            return .syntax(problem: problem, line: mark.line, column: mark.column, context: context(ctx))
        case .reader(let problem, let offset, _, _):
            return .reader(problem: problem, offset: offset)
        case .duplicatedKeysInMapping(let duplicates, let ctx):
            return .duplicateKey(duplicates.first ?? "", line: ctx.mark.line, column: ctx.mark.column)
        case .memory:
            return .memory
        default:
            return nil
        }
    }
}

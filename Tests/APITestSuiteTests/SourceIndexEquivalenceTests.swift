import APITestSupport
import Testing

@testable import APITestSuite

/// `TemplateScanner.scan` reads UTF-8 bytes and `SourceText` decodes windows of scalars from UTF-8 instead of
/// holding every scalar of the file; both must give what the scalar-array versions they replace gave (kept here as
/// the reference), for texts with multi-byte scalars, combining marks, tabs and line breaks.
@Suite struct SourceIndexEquivalenceTests {
    /// Pieces of text that the generated texts are made of.
    static let alphabet = [
        "a", "b_1", "{", "}", "{{", "}}", " ", "\t", "\n", "\r\n", "é", "e\u{301}", "😀", "\u{212A}", "env.", "x.y-z",
        "日本", "'", "\"", "\\",
    ]

    /// A deterministic generator (the tests must not depend on a random seed).
    struct Generator {
        var state: UInt64

        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func text(maxPieces: Int) -> String {
            (0..<next(below: maxPieces + 1)).map { _ in SourceIndexEquivalenceTests.alphabet[next(below: 20)] }
                .joined()
        }
    }

    // MARK: - Template scanning

    /// The scanner as it was: over an array of scalars, building literals scalar by scalar.
    static func referenceScan(_ text: String) throws(TemplateError) -> [TemplateScanner.Piece] {
        guard TemplateScanner.mayHavePlaceholders(text) else { return text.isEmpty ? [] : [.literal(text)] }
        let scalars = Array(text.unicodeScalars)
        func findClose(from start: Int) -> Int? {
            var index = start
            while index + 1 < scalars.count {
                if scalars[index] == "}", scalars[index + 1] == "}" { return index }
                if scalars[index] == "{" && scalars[index + 1] == "{" || scalars[index] == "\n" { return nil }
                index += 1
            }
            return nil
        }
        var pieces: [TemplateScanner.Piece] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                literal.append(scalars[index])
                index += 1
                continue
            }
            guard let close = findClose(from: index + 2) else {
                throw TemplateError(kind: .syntax(offset: index, length: 2), message: "'{{' is not closed by '}}'")
            }
            let inner = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
            let name = inner.trimmingCharacters(in: " \t")
            let length = close + 2 - index
            if let problem = TemplateScanner.problem(withName: name) {
                throw TemplateError(kind: .syntax(offset: index, length: length), message: problem)
            }
            if !literal.isEmpty {
                pieces.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
            }
            pieces.append(.placeholder(name: name, offset: index, length: length))
            index = close + 2
        }
        if !literal.isEmpty { pieces.append(.literal(String(literal))) }
        return pieces
    }

    /// The pieces, or the error's offset, length and message.
    static func outcome(_ scan: (String) throws(TemplateError) -> [TemplateScanner.Piece], _ text: String) -> String {
        do {
            return "\(try scan(text))"
        } catch {
            return "\(error.kind) \(error.message)"
        }
    }

    @Test func scanningGivesWhatTheScalarScannerGave() {
        var generator = Generator(state: 14)
        var texts = [
            "{{ a }}", "x{{a}}y{{ b }}", "{{ é }}", "é{{ a }}😀{{b}}", "{{ a", "{{\n}}", "{{ a {{ b }}", "{{}}",
            "{{ \u{301}a }}", "{{ env. }}", "{{ env.X }}", "日本{{ x.y-z }}日本", "}}{{", "{{ a }}}", "{{{ a }}",
        ]
        for _ in 0..<600 { texts.append(generator.text(maxPieces: 12)) }
        for text in texts {
            #expect(Self.outcome(TemplateScanner.scan, text) == Self.outcome(Self.referenceScan, text), "\(text)")
        }
    }

    // MARK: - Source text

    /// The index as it was: every scalar of the text in an array.
    struct ReferenceText {
        let scalars: [Unicode.Scalar]
        let lineStarts: [Int]

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
            var starts = [0]
            for (offset, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
            lineStarts = starts
        }

        func line(_ number: Int) -> [Unicode.Scalar]? {
            guard number >= 1, number <= lineStarts.count else { return nil }
            let start = lineStarts[number - 1]
            var end = number < lineStarts.count ? lineStarts[number] - 1 : scalars.count
            if end > start, scalars[end - 1] == "\r" { end -= 1 }
            return Array(scalars[start..<max(start, end)])
        }
    }

    @Test func theIndexGivesWhatTheScalarArrayGave() {
        var generator = Generator(state: 2024)
        // Long texts cross the checkpoints every 256 scalars.
        var texts = ["", "a", "\n", "é\n😀\r\n", String(repeating: "日本é\n", count: 300)]
        for _ in 0..<40 { texts.append(generator.text(maxPieces: 400)) }
        for text in texts {
            let index = SourceText(file: "f", text: text)
            let reference = ReferenceText(text)
            #expect(index.scalarCount == reference.scalars.count)
            #expect(index.lineStarts == reference.lineStarts)
            for number in 0...(reference.lineStarts.count + 1) {
                #expect(index.line(number) == reference.line(number), "line \(number) of \(text.debugDescription)")
            }
            let count = reference.scalars.count
            for _ in 0..<20 {
                let lower = generator.next(below: count + 2)
                let upper = lower + generator.next(below: 300)
                let clamped = min(lower, count)..<min(max(lower, upper), count)
                #expect(index.scalars(in: lower..<upper) == Array(reference.scalars[clamped]))
            }
            var bytes = 0
            for (offset, scalar) in reference.scalars.enumerated() {
                #expect(index.location(ofUTF8Offset: bytes) == index.location(ofOffset: offset))
                bytes += UTF8.width(scalar)
            }
        }
    }

    @Test func placeholdersAreLocatedInTheSource() {
        // A value written on line 2 after a multi-byte key; the second placeholder sits past a checkpoint.
        let padding = String(repeating: "é", count: 300)
        let source = "a: 1\n日本: \"\(padding){{ x }}\\n{{ y }}\"\n"
        let text = SourceText(file: "f", text: source)
        let value = "\(padding){{ x }}\n{{ y }}"
        let start = SourceLocation(file: "f", line: 2, column: 5)
        let located = text.locate(pieces: [(300, 7), (308, 7)], in: value, valueStart: start)
        #expect(
            located == [
                SourceLocation(file: "f", line: 2, column: 306), SourceLocation(file: "f", line: 2, column: 315),
            ])
    }
}

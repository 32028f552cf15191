import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

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
            var piece = TemplateScanner.Piece.placeholder(name: name, offset: index, length: length)
            if let problem = TemplateScanner.problem(withName: name) {
                // Not a name: an expression (parsed by the one parser), or a misspelt name.
                guard !name.isEmpty else {
                    throw TemplateError(kind: .syntax(offset: index, length: length), message: problem)
                }
                do {
                    piece = .expression(
                        try ExpressionParser.parse(inner), source: name, offset: index, length: length)
                } catch {
                    guard TemplateScanner.looksLikeExpression(name) else {
                        throw TemplateError(kind: .syntax(offset: index, length: length), message: problem)
                    }
                    throw TemplateError(
                        kind: .syntax(offset: index + 2 + error.offset, length: error.length), message: error.message)
                }
            }
            if !literal.isEmpty {
                pieces.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
            }
            pieces.append(piece)
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

        /// `SourceText.locate(pieces:in:valueStart:)` as it was, over every scalar of the text.
        func locate(
            pieces: [(offset: Int, length: Int)], in value: String, valueStart: APITestSupport.SourceLocation
        )
            -> [APITestSupport.SourceLocation]
        {
            let valueScalars = Array(value.unicodeScalars)
            let start =
                valueStart.line >= 1 && valueStart.line <= lineStarts.count
                ? min(scalars.count, lineStarts[valueStart.line - 1] + max(0, valueStart.column - 1)) : scalars.count
            let limit = min(scalars.count, start + valueScalars.count * 4 + 64)
            func matches(_ piece: ArraySlice<Unicode.Scalar>, in haystack: [Unicode.Scalar], at start: Int) -> Bool {
                guard start + piece.count <= haystack.count, haystack[start] == piece.first else { return false }
                return Array(haystack[start..<(start + piece.count)]) == Array(piece)
            }
            func location(ofOffset offset: Int) -> APITestSupport.SourceLocation {
                let line = lineStarts.lastIndex { $0 <= offset } ?? 0
                return APITestSupport.SourceLocation(file: "f", line: line + 1, column: offset - lineStarts[line] + 1)
            }
            var valueCursor = 0
            var sourceCursor = start
            return pieces.map { piece in
                let (offset, length) = piece
                guard offset >= 0, length > 0, offset + length <= valueScalars.count, offset >= valueCursor else {
                    return valueStart
                }
                let text = valueScalars[offset..<(offset + length)]
                var wanted = 0
                for index in valueCursor..<offset where matches(text, in: valueScalars, at: index) { wanted += 1 }
                var found = sourceCursor
                while found + length <= limit {
                    if matches(text, in: scalars, at: found) {
                        if wanted == 0 { break }
                        wanted -= 1
                    }
                    found += 1
                }
                guard found + length <= limit else {
                    var fallback = valueStart
                    fallback.column += offset
                    return fallback
                }
                valueCursor = offset + length
                sourceCursor = found + length
                return location(ofOffset: found)
            }
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

    @Test func locatingGivesWhatTheScalarSearchGave() {
        var generator = Generator(state: 99)
        for round in 0..<600 {
            // A value, written plain, quoted as is, or double-quoted with escapes, after a key on some line.
            var value = generator.text(maxPieces: 10)
            if round % 3 == 0 { value = value.replacingOccurrences(of: "\n", with: " ") }
            let written: String
            switch round % 4 {
            case 0: written = value
            case 1: written = "'" + value + "'"
            case 2: written = "\"" + value + "\""
            default:
                written =
                    "\""
                    + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
                    + "\""
            }
            let before = generator.text(maxPieces: 4).replacingOccurrences(of: "\n", with: "") + "\n"
            let source = before + "k日: " + written + "\n" + generator.text(maxPieces: 6)
            let valueStart = APITestSupport.SourceLocation(file: "f", line: 2, column: 5)
            // The placeholders of the value, and a few pieces of any kind (overlapping, out of range).
            var pieces: [(offset: Int, length: Int)] = []
            if let scanned = try? TemplateScanner.scan(value) {
                for case .placeholder(_, let offset, let length) in scanned { pieces.append((offset, length)) }
            }
            let count = value.unicodeScalars.count
            for _ in 0..<3 { pieces.append((generator.next(below: count + 3) - 1, generator.next(below: 4))) }
            let index = SourceText(file: "f", text: source)
            let reference = ReferenceText(source)
            #expect(
                index.locate(pieces: pieces, in: value, valueStart: valueStart)
                    == reference.locate(pieces: pieces, in: value, valueStart: valueStart),
                "\(source.debugDescription) \(pieces)")
        }
    }

    @Test func placeholdersAreLocatedInTheSource() {
        // A value written on line 2 after a multi-byte key; the second placeholder sits past a checkpoint.
        let padding = String(repeating: "é", count: 300)
        let source = "a: 1\n日本: \"\(padding){{ x }}\\n{{ y }}\"\n"
        let text = SourceText(file: "f", text: source)
        let value = "\(padding){{ x }}\n{{ y }}"
        let start = APITestSupport.SourceLocation(file: "f", line: 2, column: 5)
        let located = text.locate(pieces: [(300, 7), (308, 7)], in: value, valueStart: start)
        #expect(
            located == [
                APITestSupport.SourceLocation(file: "f", line: 2, column: 306),
                APITestSupport.SourceLocation(file: "f", line: 2, column: 315),
            ])
    }
}

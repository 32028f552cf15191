import Testing

@testable import APITestReporting

/// The characters the report formats make visible rather than show raw.
@Suite struct ReportTextTests {
    @Test func bidirectionalControlsAndLineSeparatorsAreMadeVisible() {
        // A server's "evil" wrapped in a right-to-left override reads reversed; a line separator breaks the line.
        let hostile = "got \u{202E}live\u{202C} \u{2066}x\u{2069} \u{200F}a\u{200E} b\u{2028}c\u{2029}d"
        let expected =
            #"got \u{202E}live\u{202C} \u{2066}x\u{2069} \u{200F}a\u{200E} b\u{2028}c\u{2029}d"#
        #expect(ReportText.terminalLine(hostile) == expected)
        #expect(ReportText.plain(hostile) == expected)
        #expect(ReportText.xmlText(hostile) == expected)
        #expect(ReportText.html(hostile) == expected)
        // Other non-ASCII text is left as it is.
        #expect(ReportText.terminalLine("café ✔ 日本 \u{200D}") == "café ✔ 日本 \u{200D}")
    }

    @Test func everyBidirectionalControlAndSeparatorIsMadeVisible() {
        // Unicode's Bidi_Control property (PropList.txt) lists exactly these, the Arabic letter mark U+061C included;
        // U+2028 and U+2029 break a line to some viewers.
        let bidiControls: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in bidiControls + [0x2028, 0x2029] {
            let scalar = Unicode.Scalar(value)!
            #expect(ReportText.needsVisibleForm(scalar), "U+\(String(value, radix: 16))")
            let shown = "\\u{\(String(value, radix: 16, uppercase: true))}"
            #expect(ReportText.terminalLine("a\(Character(scalar))b") == "a\(shown)b")
            #expect(ReportText.plain("a\(Character(scalar))b") == "a\(shown)b")
        }
        // Every scalar Swift reports as Bidi_Control is in the list.
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isBidiControl else { continue }
            #expect(bidiControls.contains(value), "U+\(String(value, radix: 16))")
            #expect(ReportText.needsVisibleForm(scalar), "U+\(String(value, radix: 16))")
        }
        // Arabic text itself stays as it is.
        #expect(ReportText.terminalLine("مرحبا") == "مرحبا")
    }
}

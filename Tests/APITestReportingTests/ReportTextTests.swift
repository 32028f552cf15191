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
}

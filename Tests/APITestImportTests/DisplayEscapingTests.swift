import APITestSupport
import Testing

@testable import APITestSuiteWriting

/// The one display escaper (`DisplayEscaping`, APITestSupport) and the one-line forms built on it: which kinds of
/// characters each escapes, its short forms, and text that needs nothing handed back as it is.
@Suite struct DisplayEscapingTests {
    @Test func eachKindEscapesItsCharactersAndNothingElse() {
        let sample = "a\t\n\u{B}\u{1B}\u{7F}\u{85}\u{9B}\u{2028}\u{61C}\u{202E}\u{2067}\u{FEFF}\u{FFFE}\u{200B}é😀"
        #expect(
            DisplayEscaping(.lineBreaks).escape(sample)
                == "a\t\\u{A}\\u{B}\u{1B}\u{7F}\\u{85}\u{9B}\\u{2028}\u{61C}\u{202E}\u{2067}\u{FEFF}\u{FFFE}\u{200B}é😀")
        #expect(
            DisplayEscaping(.controls).escape(sample)
                == "a\\u{9}\\u{A}\\u{B}\\u{1B}\\u{7F}\\u{85}\\u{9B}\u{2028}\u{61C}\u{202E}\u{2067}\u{FEFF}\u{FFFE}\u{200B}é😀"
        )
        #expect(
            DisplayEscaping(.bidiControls).escape(sample)
                == "a\t\n\u{B}\u{1B}\u{7F}\u{85}\u{9B}\u{2028}\\u{61C}\\u{202E}\\u{2067}\u{FEFF}\u{FFFE}\u{200B}é😀")
        #expect(
            DisplayEscaping([.byteOrderMark, .noncharacters]).escape(sample)
                == "a\t\n\u{B}\u{1B}\u{7F}\u{85}\u{9B}\u{2028}\u{61C}\u{202E}\u{2067}\\u{FEFF}\\u{FFFE}\u{200B}é😀")
        // Invisible: every non-ASCII scalar that does not show as itself (a zero-width space too), no ASCII control.
        #expect(
            DisplayEscaping(.invisible).escape(sample)
                == "a\t\n\u{B}\u{1B}\u{7F}\\u{85}\\u{9B}\\u{2028}\\u{61C}\\u{202E}\\u{2067}\\u{FEFF}\\u{FFFE}\\u{200B}é😀"
        )
    }

    @Test func replacementsComeFirstAndMayKeepAScalar() {
        let escaping = DisplayEscaping(.controls, replacing: ["\t": "\t", "\n": #"\n"#, "<": "&lt;"])
        #expect(escaping.escape("<a>\t\n\r") == "&lt;a>\t\\n\\u{D}")
        #expect(!escaping.changes("\t"))
        #expect(escaping.changes("<"))
    }

    @Test func textThatNeedsNothingIsHandedBack() {
        #expect(DisplayEscaping([.controls, .lineBreaks, .bidiControls]).escape("plain text é") == "plain text é")
        #expect(DisplayEscaping(.controls).escape("") == "")
    }

    @Test func oneLineEscapesOnlyLineBreaks() {
        #expect("a\nb\rc\u{B}d\u{2029}\te\u{1B}".onOneLine == "a\\nb\\rc\\u{B}d\\u{2029}\te\u{1B}")
    }

    /// Notes of a written suite escape every bidirectional control: U+061C (ARABIC LETTER MARK) passed raw before
    /// the escaper was shared, though the reports and the reproduce notes escaped it.
    @Test func notesEscapeControlsBreaksBidiControlsAndTheByteOrderMark() {
        #expect(
            "a\nb\tc\u{1B}\u{85}\u{2028}\u{61C}\u{202E}\u{FEFF}é".onOneLineForNotes
                == "a\\nb\\tc\\u{1B}\\u{85}\\u{2028}\\u{61C}\\u{202E}\\u{FEFF}é")
    }
}

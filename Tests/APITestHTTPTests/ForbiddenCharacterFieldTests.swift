import Testing

@testable import APITestHTTP

/// A forbidden character's field names a header or part as the display escaper shows it: the short forms of CR,
/// LF, NUL and tab, and every other control (C1 too), line break and bidirectional control as an upper-case
/// `\u{..}`, as every other message and report shows them.
@Suite struct ForbiddenCharacterFieldTests {
    @Test func aNameIsShownOnOneLineInOrder() {
        let field = ForbiddenCharacter.Field.headerName("X\r\n\0\t\u{1B}\u{85}\u{2028}\u{202E}é")
        // The old escaper wrote `\u{1b}` in lower case and left NEL, U+2028 and U+202E raw.
        #expect(field.description == #"the name of header 'X\r\n\0\t\u{1B}\u{85}\u{2028}\u{202E}é'"#)
    }

    @Test func aPlainNameIsUnchanged() {
        let field = ForbiddenCharacter.Field.multipartHeaderValue(part: "file", name: "X-Token")
        #expect(field.description == "the value of header 'X-Token' of multipart part 'file'")
    }
}

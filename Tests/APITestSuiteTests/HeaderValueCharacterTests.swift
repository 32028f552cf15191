import Testing

@testable import APITestSuite

/// Header values are checked byte by byte at load: a `\r\n` (one Swift `Character`), NUL, a vertical tab or any
/// other control character but the horizontal tab is a located error, not a header sent as it is.
@Suite("Header value characters")
struct HeaderValueCharacterTests {
    /// The errors of a request whose header `X-A` is the double-quoted YAML text `value`.
    static func errors(ofHeaderValue value: String) -> [String] {
        APITestSuiteTests.errors(
            "tests:\n  - name: t\n    steps:\n      - request: {url: 'http://127.0.0.1:1/', headers: {X-A: \"\(value)\"}}\n"
        )
    }

    @Test(arguments: [
        (#"a\r\nb"#, "a line break"), (#"a\nb"#, "a line break"), (#"a\rb"#, "a line break"),
        (#"a\0b"#, "a NUL character"), (#"a\vb"#, "the control character U+000B"),
        (#"a\x01b"#, "the control character U+0001"), (#"a\x1Fb"#, "the control character U+001F"),
        (#"a\x7Fb"#, "the control character U+007F"), (#"x\r\nEvil: 1"#, "a line break"),
    ])
    func controlCharactersAreRefusedAtLoad(_ value: String, _ what: String) {
        #expect(
            Self.errors(ofHeaderValue: value) == [
                "suites/test.yaml:4:62: error: the value of header 'X-A' cannot contain \(what)"
            ])
    }

    @Test func aTabAndPrintableTextPass() {
        #expect(Self.errors(ofHeaderValue: #"a\tb é ✓ {{ 1 + 1 }}"#) == [])
    }

    @Test func defaultsAndMultipartHeadersAreCheckedToo() {
        let found = APITestSuiteTests.errors(
            """
            defaults:
              headers: {X-D: "a\\vb"}
            tests:
              - name: t
                steps:
                  - request:
                      url: 'http://127.0.0.1:1/'
                      method: POST
                      multipart:
                        - {name: f, value: v, headers: {X-P: "1\\r\\n2"}}

            """)
        #expect(
            found == [
                "suites/test.yaml:2:18: error: the value of header 'X-D' cannot contain the control character U+000B",
                "suites/test.yaml:10:50: error: the value of header 'X-P' cannot contain a line break",
            ])
    }
}

import Testing

@testable import APITestGenerate

/// The shortest strings simple patterns match, and the patterns left alone.
struct RegexExampleTests {
    @Test(arguments: [
        ("^abc$", "abc"), ("a+b*c?", "a"), ("^\\d{3}-\\d{2,4}$", "000-00"), ("[^,;]+", "a"),
        ("^[0-9a-f]{8}$", "00000000"),
        ("^(foo|bar)\\.txt$", "foo.txt"), ("(?:ab){2}", "abab"), ("^\\w+@\\w+\\.com$", "a@a.com"),
        ("^\\x41\\u0042$", "AB"),
        ("[\\d_]", "0"), ("a{,2}", "a{,2}"), ("^(?<year>\\d{4})$", "0000"), (".", "a"), ("^[-+]?\\d+$", "0"),
    ])
    func shortestMatch(_ pattern: String, _ expected: String) {
        #expect(RegexExample.match(pattern, minimumLength: 0, maximumLength: .max) == expected)
    }

    @Test func lengthBoundsRepeatTheQuantifiedParts() {
        #expect(RegexExample.match("^[a-z]*$", minimumLength: 4, maximumLength: 10) == "aaaa")
        #expect(RegexExample.match("^x[0-9]+$", minimumLength: 3, maximumLength: 3) == "x00")
        #expect(RegexExample.match("^abcdef$", minimumLength: 0, maximumLength: 3) == nil)
    }

    @Test(arguments: ["(?=a)b", "(a)\\1", "\\p{L}", "[a-", "(ab", "a**", "\\cA", "a{2,1}"])
    func beyondTheSynthesizer(_ pattern: String) {
        #expect(RegexExample.match(pattern, minimumLength: 0, maximumLength: .max) == nil)
    }
}

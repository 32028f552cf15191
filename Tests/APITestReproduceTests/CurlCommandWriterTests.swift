import APITestResults
import APITestSecrets
import APITestSuite
import Testing

@testable import APITestReproduce

/// The curl command writer on its own (the commands of whole runs are `ReproduceCommandTests`, in the runner's tests).
@Suite struct CurlCommandWriterTests {
    @Test func notesShowInvisibleCharactersAsEscapes() {
        // A note is a `# note:` comment line of a script: a server's line break or right-to-left override in a part
        // name must neither end the comment nor reorder how it reads.
        var writer = CurlCommandWriter(
            first: ReproduceSentinels(), second: ReproduceSentinels(), context: TemplateContext(), sent: nil,
            masker: SecretMasker(secrets: []))
        writer.note("part a\nb\u{202E}c\u{2066}d\u{200B}é")
        #expect(writer.command.notes == [#"part a\u{A}b\u{202E}c\u{2066}d\u{200B}é"#])
    }
}

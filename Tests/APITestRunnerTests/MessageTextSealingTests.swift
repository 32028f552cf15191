import APITestJSON
import APITestResults
import APITestSecrets
import APITestSupport
import Testing

@testable import APITestRunner

/// A message's quoted values are masked whole and only then cut, where the step is sealed: nothing before sealing
/// masks or cuts them, so a cut never leaves part of a secret that masking would no longer recognise.
@Suite struct MessageTextSealingTests {
    static let secret = "tok-0123456789abcdefghij"
    static let masker = SecretMasker(secrets: [secret])

    @Test func aQuotedValueIsKeptWholeUntilSealingAndThenMaskedBeforeItIsCut() {
        // The secret starts 10 characters before the value's cut (limit 20).
        let value = String(repeating: "x", count: 10) + Self.secret + String(repeating: "y", count: 50)
        let text: MessageText = "got \(quoting: value, limit: 20) (and more)"
        #expect(text.parts == [.words("got "), .quote(value, limit: 20), .words(" (and more)")])
        let sealed = text.rendered(masking: Self.masker.mask)
        #expect(!sealed.contains("tok-"), "\(sealed)")
        #expect(sealed.hasPrefix("got xxxxxxxxxx\(SecretMasker.mask)yyy"), "\(sealed)")
        #expect(sealed.hasSuffix(" (and more)"), "\(sealed)")
        // Cutting first, as the checker did before sealing existed, shows the secret's start.
        let cutFirst = Self.masker.mask(value.truncated(to: 20))
        #expect(cutFirst.contains("tok-"))
    }

    @Test func wordsAreMaskedButNeverCut() {
        let words = String(repeating: "w", count: 500) + Self.secret
        let text = MessageText(words)
        #expect(text.rendered(masking: Self.masker.mask) == String(repeating: "w", count: 500) + SecretMasker.mask)
    }

    @Test func interpolatedMessagesKeepTheirQuotesApart() {
        let inner: MessageText = "a \(quoting: "v1", limit: 1)"
        let outer: MessageText = "\(inner), b \(quoting: "v2", limit: 5)"
        #expect(outer.parts == [.words("a "), .quote("v1", limit: 1), .words(", b "), .quote("v2", limit: 5)])
        #expect(outer.rendered { $0 }.hasPrefix("a v… (2 bytes), b v2"))
    }

    /// A failing check's message holds the response's value whole; the step's sealed result masks and cuts it.
    @Test func aCheckFailureIsCutOnlyWhenTheStepIsSealed() {
        let value = String(repeating: "x", count: 110) + Self.secret
        let failure = AssertionFailure(
            location: SourceLocation(file: "s.yaml", line: 3, column: 5), subject: "jsonpath $.a",
            text: "jsonpath $.a: expected \(quoting: "1", limit: 120), got \(quoting: value, limit: 120)")
        #expect(failure.text.parts.contains(.quote(value, limit: 120)))
        let sealed = StepDraft(index: 0, location: failure.location, failures: [failure]).sealed(by: Self.masker)
        let message = sealed.failures[0].message
        #expect(!message.contains("tok-"), "\(message)")
        #expect(message.hasSuffix("x" + SecretMasker.mask), "\(message)")
    }

    /// A `forEach` item in a step's label is quoted too: a secret the item holds across the label's 40-character
    /// cut is masked whole (the label cut the item before the masker saw it).
    @Test func aForEachItemInALabelIsMaskedBeforeItIsCut() {
        let item = String(repeating: "i", count: 30) + Self.secret
        let label = TestExecutor.iterationLabel(
            "pet", offset: 0, count: 2, variable: "id", item: .string(item), secret: false)
        var result = StepDraft(index: 0, location: SourceLocation(file: "s.yaml", line: 1, column: 1)).sealed(
            by: Self.masker)
        result.relabel(label, sealedBy: Self.masker)
        let shown = result.label ?? ""
        #expect(!shown.contains("tok-"), "\(shown)")
        #expect(shown.hasPrefix("pet › 1/2 (id=" + String(repeating: "i", count: 30) + SecretMasker.mask), "\(shown)")
    }
}

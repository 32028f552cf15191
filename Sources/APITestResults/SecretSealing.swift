/// What hides secrets in text bound for reports: all the step's sealing point (`StepDraft.sealed(by:)`) asks of a
/// masker. The runner's `SecretMasker` conforms; the results layer knows no more of it than this.
package protocol SecretSealing: Sendable {
    /// `text` with every secret it holds replaced by the mask; `text` itself (not a copy) when it holds none.
    func mask(_ text: String) -> String

    /// The value of header `name` as reports may show it (a credential header's whole value masked).
    func maskHeader(name: String, value: String) -> String
}

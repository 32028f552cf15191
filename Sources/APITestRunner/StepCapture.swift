import APITestChecks
import APITestResults
import APITestSecrets
import APITestSuite

/// The last stage of a step's attempt whose checks held: its captures, taken from the decoded body into a copy of
/// the context (a value computed from a secret becomes a secret of that context).
struct StepCapture {
    let checker: ResponseChecker
    let captures: [CaptureSpec]

    /// What the stage produced.
    struct Outcome {
        /// The context with the values captured.
        var context: TemplateContext
        /// The names captured, in order.
        var captured: [String]
        /// The captures that found nothing (or a value of the wrong kind).
        var failures: [AssertionFailure]
    }

    /// Takes the captures from `body` into `context`; `masker` tells which values are secrets.
    func run(_ body: inout ResponseBody, context: TemplateContext, masker: SecretMasker) -> Outcome {
        guard !captures.isEmpty else { return Outcome(context: context, captured: [], failures: []) }
        var context = context
        let capture = checker.capture(captures, body: &body, into: &context, masker: masker)
        return Outcome(context: context, captured: capture.captured, failures: capture.failures)
    }
}

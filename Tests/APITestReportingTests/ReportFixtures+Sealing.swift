import APITestResults
import APITestSupport

// MARK: - Steps built by hand, through the sealing point

/// A step written out field by field, for the reporter tests: made a ``StepResult`` by sealing it, with nothing to
/// mask (outside the results module sealing and decoding a report are the only ways to a step's result). Made with
/// the memberwise initializer (the step `index` at `location`, every other field defaulted as declared) or from a
/// result (`init(_:)`, in the extension, so that the memberwise initializer stays).
struct FixtureStep {
    var index: Int
    var location: SourceLocation
    var exchange: Exchange?
    var failures: [AssertionFailure] = []
    var warnings: [AssertionFailure] = []
    var checks: [AssertionCheck] = []
    var error: TestError?
    var captured: [String] = []
    var attempts = 1
    var reproduce: ReproduceCommand?
    var earlierAttempts: [ReproduceCommand] = []
    var label: String?
    var skipped: String?

    /// Masks nothing: the fixtures' texts are what the reports must show.
    struct NoSecrets: SecretSealing {
        func mask(_ text: String) -> String { text }
        func maskHeader(name: String, value: String) -> String { value }
    }

    /// The step sealed: its texts as they are (the fixtures' texts are shorter than every cut).
    var sealed: StepResult {
        var draft = StepDraft(
            index: index, location: location, exchange: exchange.map(Self.draft), failures: failures,
            checks: checks, error: error, captured: captured, attempts: attempts)
        draft.warnings = warnings
        draft.reproduce = reproduce
        draft.earlierAttempts = earlierAttempts
        draft.label = label.map { MessageText($0) }
        draft.skipped = skipped
        return draft.sealed(by: NoSecrets())
    }

    /// `exchange` as a draft whose sealing gives it back: whole bodies, no preview cut.
    static func draft(_ exchange: Exchange) -> ExchangeDraft {
        func body(_ text: String) -> ExchangeDraft.Body {
            .text(text, readBytes: text.utf8.count, totalSize: text.utf8.count)
        }
        var draft = ExchangeDraft(
            method: exchange.method, url: exchange.url, requestHeaders: exchange.requestHeaders,
            bodyPreviewLimit: Int.max)
        draft.sentRequestHeaders = exchange.sentRequestHeaders
        draft.requestBody = exchange.requestBody.map(body)
        draft.requestBodySize = exchange.requestBodySize
        draft.statusCode = exchange.statusCode
        draft.httpVersion = exchange.httpVersion
        draft.responseHeaders = exchange.responseHeaders
        draft.responseBody = exchange.responseBody.map(body)
        draft.responseBodySize = exchange.responseBodySize
        draft.effectiveURL = exchange.effectiveURL
        draft.remoteAddress = exchange.remoteAddress
        draft.redirectCount = exchange.redirectCount
        draft.timings = exchange.timings
        return draft
    }
}

extension FixtureStep {
    /// The fields of `result`.
    init(_ result: StepResult) {
        self.init(
            index: result.index, location: result.location, exchange: result.exchange, failures: result.failures,
            warnings: result.warnings, checks: result.checks, error: result.error, captured: result.captured,
            attempts: result.attempts, reproduce: result.reproduce, earlierAttempts: result.earlierAttempts,
            label: result.label, skipped: result.skipped)
    }
}

extension StepResult {
    /// The result of sealing `step`.
    init(reported step: FixtureStep) {
        self = step.sealed
    }

    /// Makes `change` to the step's fields, then seals them again: a fixture's way to a step unlike the standard
    /// ones (a result's fields are read-only outside the results module).
    mutating func change(_ change: (inout FixtureStep) -> Void) {
        var step = FixtureStep(self)
        change(&step)
        self = step.sealed
    }
}

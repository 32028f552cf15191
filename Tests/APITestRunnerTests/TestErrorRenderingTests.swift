import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Testing

@testable import APITestRunner

/// The runner makes every `TestError` from a typed cause in one place (`TestError+Rendering.swift`): the kind
/// follows the cause, and the words are those reports have always shown.
@Suite struct TestErrorRenderingTests {
    static let here = SourceLocation(file: "s.yaml", line: 4, column: 7)

    /// An error of none of the layers' types, which describes itself.
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the body cannot be built" }
    }

    /// One cause, the kind it gets and the message it renders.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var cause: @Sendable () -> TestError.Cause
        var kind: TestError.Kind
        var message: String

        var testDescription: String { name }
    }

    /// A finished setup with one step, which ended with `error` or `failure`.
    static func setup(_ status: TestStatus, error: TestError? = nil, failure: AssertionFailure? = nil) -> TestResult {
        let step = StepDraft(index: 0, location: here, failures: failure.map { [$0] } ?? [], error: error)
            .sealed(by: SecretMasker(secrets: []))
        return TestResult(
            suiteName: "users", suiteFile: "s.yaml", name: "setup", location: here, status: status, duration: .zero,
            steps: [step])
    }

    static let rows: [Row] = [
        Row(
            name: "a transfer failure keeps the HTTP layer's sentence",
            cause: { .http(HTTPError(.sessionShutDown)) }, kind: .cancelled,
            message: "the session manager has been shut down"),
        Row(
            name: "a request the HTTP layer refused",
            cause: { .http(HTTPError(.relativeURLWithoutBase(reference: "users"))) }, kind: .transfer(.invalidRequest),
            message: "relative URL 'users' needs a baseURL"),
        Row(
            name: "a body over the limit names it in units and both settings",
            cause: { .http(HTTPError(.bodyTooLarge(limit: 4096), curlCode: 23)) }, kind: .transfer(.bodyTooLarge),
            message: "the response body is larger than the limit of 4 KiB (4096 bytes); raise it with "
                + "'defaults: {maxResponseSize: 200MB}' in the suite or '--max-response-size 200MB' on the command "
                + "line (0 for no limit); a step that checks only the body's size or digests does not keep it and has "
                + "no limit"),
        Row(
            name: "a security block that is no policy",
            cause: { .security(SecurityPolicyError("pins: 'x' is not a pin")) }, kind: .security,
            message: "pins: 'x' is not a pin"),
        Row(
            name: "another request failure says itself",
            cause: { .request(Refusal()) }, kind: .request, message: "the body cannot be built"),
        Row(name: "an interruption", cause: { .interrupted }, kind: .cancelled, message: "interrupted"),
        Row(
            name: "an interruption during setup", cause: { .interruptedDuringSetup }, kind: .cancelled,
            message: "interrupted during the suite's setup"),
        Row(
            name: "a setup that errored gives its error",
            cause: {
                .setupNotPassed(
                    setup(.errored, error: TestError(kind: .transfer(.timedOut), message: "timed out: 5 s passed")))
            },
            kind: .setup, message: "not run: the suite's setup errored: timed out: 5 s passed"),
        Row(
            name: "a setup that failed gives its first failure and where",
            cause: {
                .setupNotPassed(
                    setup(
                        .failed, failure: AssertionFailure(location: here, subject: "status", message: "status is 500"))
                )
            },
            kind: .setup, message: "not run: the suite's setup failed: s.yaml:4:7: status is 500"),
        Row(
            name: "an unreachable host names the first test that found it",
            cause: {
                .unreachable(
                    HostReachability.Mark(
                        endpoint: HostEndpoint(scheme: "http", host: "down.test", port: 81), reason: .connectionRefused,
                        since: "users › first"))
            },
            kind: .unreachable,
            message: "not run: down.test:81 was unreachable (connection refused) since 'users › first'"),
    ]

    @Test(arguments: rows)
    func aCauseRendersItsKindAndMessage(_ row: Row) {
        let error = TestError(row.cause(), location: Self.here)
        #expect(error.kind == row.kind)
        #expect(error.message == row.message)
        #expect(error.location == Self.here)
        #expect(error.undefinedVariable == nil)
    }

    @Test(arguments: [
        (HTTPError.Reason.dnsFailure, "host not found"), (.connectionRefused, "connection refused"),
        (.timedOut, "connect timed out"), (.connectionFailed, "could not connect"),
    ])
    func anUnreachableHostsCauseFollowsTheReason(_ reason: HTTPError.Reason, _ cause: String) {
        let mark = HostReachability.Mark(
            endpoint: HostEndpoint(scheme: "http", host: "h", port: 80), reason: reason, since: "s › t")
        #expect(mark.cause == cause)
    }

    @Test func aTemplateErrorKeepsItsOwnLocationAndTheVariable() throws {
        let written = SourceLocation(file: "s.yaml", line: 9, column: 3)
        let template = try Template(parsing: "{{ token }}", location: written)
        do {
            _ = try template.render(TemplateContext())
            Issue.record("rendering an undefined variable must fail")
        } catch {
            let testError = TestError(.template(error), location: Self.here)
            #expect(testError.kind == .template)
            #expect(testError.undefinedVariable == "token")
            #expect(testError.location?.file == "s.yaml" && testError.location?.line == 9)
        }
    }

    @Test func theMessageIsMaskedWhereTheStepIsSealed() {
        let masker = SecretMasker(secrets: ["s3cret"])
        let failure = HTTPError(.unsupportedScheme(url: "ftp://h/s3cret"))
        let error = TestError(.http(failure), location: nil)
        #expect(error.message.contains("s3cret"), "rendered as the cause says; masked when sealed")
        let sealed = StepDraft(index: 0, location: Self.here, error: error).sealed(by: masker)
        #expect(sealed.error?.message == "unsupported URL scheme in 'ftp://h/\(SecretMasker.mask)': use http or https")
        #expect(TestError(kind: .request, message: "a s3cret").sealed(by: masker).message == "a \(SecretMasker.mask)")
    }

    @Test func aTeardownErrorOnACaptureOfAnUnfinishedSetupSaysSo() {
        let error = TestError(kind: .template, message: "undefined variable 'id'", undefinedVariable: "id")
        let noted = error.notingUnfinishedSetup()
        #expect(noted.message == "undefined variable 'id' (the suite's setup did not finish)")
        #expect(noted.kind == .template && noted.undefinedVariable == "id")
    }
}

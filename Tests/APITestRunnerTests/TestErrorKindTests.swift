import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import Testing

@testable import APITestRunner

/// Error kinds are typed end to end, and reports keep the words they always showed.
@Suite struct TestErrorKindTests {
    static let reasons: [HTTPError.Reason] = [
        .invalidRequest, .forbiddenCharacter, .dnsFailure, .connectionRefused, .connectionFailed, .connectionReset,
        .emptyReply, .timedOut, .tlsFailure, .pinMismatch, .tooManyRedirects, .bodyTooLarge, .badContentEncoding,
        .bodyFileUnreadable, .bodyFileChanged, .proxyFailure, .cancelled, .other,
    ]

    @Test(arguments: reasons)
    func everyTransferReasonHasTheKindOfTheSameName(_ reason: HTTPError.Reason) {
        let kind = TestError.Kind(reason)
        #expect(kind.rawValue == reason.rawValue)
        #expect(TestError(kind: kind, message: "").isRetryable == reason.isRetryable)
    }

    @Test func onlyHopelessTransfersAreNotRetried() {
        let hopeless = Self.reasons.filter { !$0.isRetryable }
        #expect(hopeless == [.invalidRequest, .forbiddenCharacter, .pinMismatch, .bodyFileUnreadable])
        for kind in [TestError.Kind.template, .request, .unreachable, .cancelled, .timedOut] {
            #expect(TestError(kind: kind, message: "").isRetryable)
        }
    }

    @Test func anUndefinedVariableIsNamedNotParsedFromTheMessage() throws {
        let template = try Template(
            parsing: "{{ token }}", location: SourceLocation(file: "s.yaml", line: 1, column: 1))
        do {
            _ = try template.render(TemplateContext())
            Issue.record("rendering an undefined variable must fail")
        } catch {
            let testError = TestError(.template(error), location: nil)
            #expect(testError.kind == .template)
            #expect(testError.undefinedVariable == "token")
            #expect(testError.message == "undefined variable 'token'")
        }
    }

    @Test func kindsKeepTheirReportWords() {
        #expect(
            TestError.Kind.allCases.map(\.rawValue).prefix(6) == [
                "template", "request", "security", "setup", "unreachable", "cancelled",
            ])
    }
}

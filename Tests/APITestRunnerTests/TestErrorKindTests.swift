import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestRunner

/// Error kinds are typed end to end, and reports keep the words they always showed.
@Suite struct TestErrorKindTests {
    static let reasons: [HTTPError.Reason] = [
        .invalidRequest, .forbiddenCharacter, .dnsFailure, .connectionRefused, .connectionFailed, .connectionReset,
        .emptyReply, .timedOut, .tlsFailure, .pinMismatch, .tooManyRedirects, .bodyTooLarge, .badContentEncoding,
        .bodyFileUnreadable, .bodyFileChanged, .proxyFailure, .webSocketHandshake, .webSocketProtocol, .cancelled,
        .other,
    ]

    @Test(arguments: reasons)
    func everyTransferReasonIsAKindOfTheSameName(_ reason: HTTPError.Reason) {
        let kind = TestError.Kind(reason)
        #expect(kind.rawValue == reason.rawValue)
        #expect(TestError.Kind(rawValue: reason.rawValue) == kind)
        #expect(TestError(kind: kind, message: "").isRetryable == reason.isRetryable)
        if reason == .cancelled {
            #expect(kind == .cancelled, "a cancelled transfer is an interruption")
        } else {
            #expect(kind == .transfer(reason), "the kind holds the reason, not a copy of it")
        }
    }

    @Test func onlyHopelessTransfersAreNotRetried() {
        let hopeless = Self.reasons.filter { !$0.isRetryable }
        #expect(hopeless == [.invalidRequest, .forbiddenCharacter, .pinMismatch, .bodyFileUnreadable])
        for kind in [TestError.Kind.template, .request, .unreachable, .cancelled, .transfer(.timedOut)] {
            #expect(TestError(kind: kind, message: "").isRetryable)
        }
    }

    @Test func aKindIsWrittenAndReadAsTheWordReportsShow() throws {
        for kind in TestError.Kind.allCases {
            let json = try JSONEncoder().encode(kind)
            #expect(String(decoding: json, as: UTF8.self) == "\"\(kind.rawValue)\"")
            #expect(try JSONDecoder().decode(TestError.Kind.self, from: json) == kind)
        }
        #expect(TestError.Kind.allCases.count == 7 + Self.reasons.count - 1, "each word once")
        #expect(Set(TestError.Kind.allCases.map(\.rawValue)).count == TestError.Kind.allCases.count)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TestError.Kind.self, from: Data(#""nope""#.utf8))
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

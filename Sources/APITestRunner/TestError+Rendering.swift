import APITestAuth
import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport

// MARK: - Typed causes

extension TestError {
    /// What stopped a step, as the typed values of the layers below and of the runner. The runner makes every
    /// `TestError` from one of these (`init(_:location:)`), so the words its errors show are written in
    /// this one file.
    enum Cause {
        /// The HTTP layer failed the request: it could not be built (a URL that does not resolve, a property list
        /// holding null), it was refused before it was sent, or its transfer failed.
        case http(HTTPError)
        /// A template could not be rendered.
        case template(TemplateError)
        /// The suite's `security:` block or the run's TLS flags could not be turned into a policy.
        case security(SecurityPolicyError)
        /// The request could not be built for another reason; the error as it describes itself.
        case request(any Error)
        /// The run was interrupted (Ctrl-C) before or during the step.
        case interrupted
        /// The run was interrupted during the suite's setup.
        case interruptedDuringSetup
        /// The suite's setup ended with this result, which did not pass: its tests are not run.
        case setupNotPassed(TestResult)
        /// The step was not sent: its host was found unreachable earlier in the run.
        case unreachable(HostReachability.Mark)
        /// The step was not sent: the OAuth2 token it needs could not be had.
        case authentication(OAuth2Failure)
    }

    /// The error for `cause`, at `location` (a template error at its own location when it knows one). Its message
    /// is masked where the step's result is sealed (`StepDraft.sealed(by:)`).
    init(_ cause: Cause, location: SourceLocation?) {
        let kind: Kind
        var message = ""
        var text: MessageText?
        var location = location
        var undefinedVariable: String?
        switch cause {
        case .http(let error):
            kind = Kind(error.reason)
            message = Self.message(for: error)
        case .template(let error):
            kind = .template
            text = error.text
            location = error.location ?? location
            if case .undefinedVariable(let name) = error.kind { undefinedVariable = name }
        case .security(let error):
            kind = .security
            message = error.message
        case .request(let error):
            kind = .request
            message = "\(error)"
        case .interrupted:
            kind = .cancelled
            message = "interrupted"
        case .interruptedDuringSetup:
            kind = .cancelled
            message = "interrupted during the suite's setup"
        case .setupNotPassed(let result):
            kind = .setup
            let cause = result.error?.message ?? result.failures.first.map { "\($0.location): \($0.message)" }
            message = "not run: the suite's setup \(result.status.rawValue)" + (cause.map { ": \($0)" } ?? "")
        case .unreachable(let mark):
            kind = .unreachable
            message = "not run: \(mark.endpoint) was unreachable (\(mark.cause)) since '\(mark.since)'"
        case .authentication(let failure):
            kind = failure.reason == .interrupted ? .cancelled : .authentication
            text = failure.text
        }
        self.init(
            kind: kind, text: text ?? MessageText(message), location: location,
            undefinedVariable: undefinedVariable)
    }

    // MARK: - Changing a rendered error

    /// This error of a teardown step, which used a capture of a setup that did not finish: the message says so.
    func notingUnfinishedSetup() -> TestError {
        var noted = self
        noted.text = "\(text) (the suite's setup did not finish)"
        return noted
    }

    // MARK: - Words for the HTTP layer's errors

    /// The message of an HTTP layer's failure: its own sentence, except that a body over the size limit names the
    /// limit in units and both settings that raise it.
    static func message(for failure: HTTPError) -> String {
        guard failure.reason == .bodyTooLarge, let limit = failure.bodyLimit else { return failure.message }
        return "the response body is larger than the limit of \(ByteSize(bytes: limit)); raise it with "
            + "'defaults: {maxResponseSize: 200MB}' in the suite or '--max-response-size 200MB' on the command line "
            + "(0 for no limit); a step that checks only the body's size or digests does not keep it and has no limit"
    }
}

extension HostReachability.Mark {
    /// A short cause for a host that could not be connected to with `reason`: `connection refused`,
    /// `host not found`, `could not connect`, `connect timed out`.
    package var cause: String {
        switch reason {
        case .dnsFailure: "host not found"
        case .connectionRefused: "connection refused"
        case .timedOut: "connect timed out"
        default: "could not connect"
        }
    }
}

package import APITestSupport

/// How a test ended.
package enum TestStatus: String, Sendable, Hashable, Codable {
    /// Every assertion of every step held.
    case passed
    /// An assertion did not hold.
    case failed
    /// The test could not complete: a network or TLS failure, an undefined variable at run time, a bad URL.
    case errored
    /// The test was not run, on purpose or because something it depends on failed.
    case skipped
    /// The run was interrupted (Ctrl-C) while the test was in flight.
    case cancelled
}

/// The outcome of one test: its steps, in order, and what failed.
package struct TestResult: Sendable, Hashable, Codable {
    package var suiteName: String
    package var suiteFile: String
    package var name: String
    package var location: SourceLocation
    package var status: TestStatus
    /// Wall time from the test's start to its end.
    package var duration: Duration
    package var steps: [StepResult]
    /// Why the test was skipped or cancelled, when it was.
    package var reason: String?

    package init(
        suiteName: String, suiteFile: String, name: String, location: SourceLocation, status: TestStatus,
        duration: Duration, steps: [StepResult], reason: String? = nil
    ) {
        self.suiteName = suiteName
        self.suiteFile = suiteFile
        self.name = name
        self.location = location
        self.status = status
        self.duration = duration
        self.steps = steps
        self.reason = reason
    }

    /// Every assertion failure of every step.
    package var failures: [AssertionFailure] { steps.flatMap(\.failures) }

    /// The first error of any step.
    package var error: TestError? { steps.lazy.compactMap(\.error).first }
}

/// The outcome of one step: its request, the response facts, and its failed assertions.
package struct StepResult: Sendable, Hashable, Codable {
    package var index: Int
    package var location: SourceLocation
    /// What was sent and received; `nil` when the request could not be built.
    package var exchange: Exchange?
    package var failures: [AssertionFailure]
    /// What is wrong but does not fail the step: requests that break the OpenAPI contract or match no operation of
    /// it (unless the contract is `strict`).
    package var warnings: [AssertionFailure] = []
    /// Every assertion the step checked, passed or not, in the order they were checked.
    package var checks: [AssertionCheck]
    package var error: TestError?
    /// Names of the values this step captured.
    package var captured: [String]
    /// How many times the request was sent (more than 1 when the step has `retry`); the result is the last one's.
    package var attempts: Int
    /// The last request sent (or about to be sent) as a curl command: set for a step that failed or errored once
    /// its request was built, and for every step when the run records every request (`--curl`).
    package var reproduce: ReproduceCommand?
    /// The requests of the attempts before the last one, as curl commands, when the run records every request.
    package var earlierAttempts: [ReproduceCommand] = []
    /// What reports call the step: its `name`, and for an iteration of a step's `forEach` which one
    /// (`delete pet › 3/17 (id=42)`); nil for `step N`.
    package var label: String?
    /// Why the step was not sent (`when: false ({{ count }} > 0)`, `forEach: no items`); nil when it ran.
    package var skipped: String?

    package init(
        index: Int, location: SourceLocation, exchange: Exchange?, failures: [AssertionFailure] = [],
        checks: [AssertionCheck] = [], error: TestError? = nil, captured: [String] = [], attempts: Int = 1
    ) {
        self.attempts = attempts
        self.index = index
        self.location = location
        self.exchange = exchange
        self.failures = failures
        self.checks = checks
        self.error = error
        self.captured = captured
    }
}

/// An assertion that did not hold: where it is written, what it checked, what it expected and what it got.
package struct AssertionFailure: Sendable, Hashable, Codable {
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `jsonpath $.users[0].name`.
    package var subject: String
    /// A one-line summary, e.g. `expected status 201, got 400`.
    package var message: String
    package var expected: String?
    package var actual: String?

    package init(
        location: SourceLocation, subject: String, message: String, expected: String? = nil, actual: String? = nil
    ) {
        self.location = location
        self.subject = subject
        self.message = message
        self.expected = expected
        self.actual = actual
    }
}

/// One assertion as checked: where it is written, what it checked, what it expected, and whether it held.
package struct AssertionCheck: Sendable, Hashable, Codable {
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `$.users[0].name`.
    package var subject: String
    /// What it had to be, e.g. `200`, `to contain "json"`.
    package var expected: String
    package var passed: Bool

    package init(location: SourceLocation, subject: String, expected: String, passed: Bool) {
        self.location = location
        self.subject = subject
        self.expected = expected
        self.passed = passed
    }
}

/// Why a step could not complete: its kind and a sentence for people, already rendered and masked.
///
/// Unlike the errors of the layers below (`HTTPError`, `TemplateError`), which are typed values rendered on demand,
/// this is a results-layer value that holds text: reports are written from it, the reporting layer depends on the
/// results layer only (it knows neither HTTP nor suites), and a secret must be masked before anything leaves the
/// runner. What callers tell apart stays typed (`kind`, `undefinedVariable`); the runner renders the message from
/// typed causes in one place (`TestError.Cause` in `APITestRunner/TestError+Rendering.swift`).
package struct TestError: Error, Sendable, Hashable, Codable {
    /// What kind of problem stopped the step. The raw values are what reports show (`[connectionRefused]`,
    /// JUnit's `type`, TAP's and JSON's `kind`); the message says the rest.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        // MARK: Before sending
        /// A template could not be rendered (an undefined variable, an unset environment variable).
        case template
        /// The request could not be built for another reason.
        case request
        /// The suite's `security:` block or the TLS flags could not be turned into a policy.
        case security
        /// Not run: the suite's setup failed.
        case setup
        /// Not run: the host was found unreachable earlier in the run.
        case unreachable
        /// The run was interrupted (Ctrl-C) before or during the step.
        case cancelled
        /// The credentials the request needs could not be had: an OAuth2 token endpoint refused or failed.
        case authentication

        // MARK: The transfer (one per `HTTPError.Reason` of the HTTP layer)
        /// libcurl refused the request.
        case invalidRequest
        /// A field bound for the wire held CR, LF or NUL; nothing was sent.
        case forbiddenCharacter
        /// The host name did not resolve.
        case dnsFailure
        /// The server refused the connection.
        case connectionRefused
        /// The connection could not be made for another reason.
        case connectionFailed
        /// The server reset the connection.
        case connectionReset
        /// The server closed the connection without answering.
        case emptyReply
        /// A time limit passed.
        case timedOut
        /// The TLS handshake or certificate verification failed.
        case tlsFailure
        /// No certificate of the server's chain matched a pin; nothing was sent.
        case pinMismatch
        /// More redirects than allowed.
        case tooManyRedirects
        /// The response body passed the size limit.
        case bodyTooLarge
        /// The body's content encoding could not be undone.
        case badContentEncoding
        /// A body file could not be read.
        case bodyFileUnreadable
        /// A body file changed while it was sent.
        case bodyFileChanged
        /// The proxy failed.
        case proxyFailure
        /// Any other transfer failure.
        case other
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// A sentence for people.
    package var message: String
    /// Where in the suite the problem is, when known.
    package var location: SourceLocation?
    /// The variable a template named but had no value for (`kind == .template`), so that callers can tell which
    /// without reading the message.
    package var undefinedVariable: String?

    /// An error of `kind` with `message`, at `location`.
    package init(kind: Kind, message: String, location: SourceLocation? = nil, undefinedVariable: String? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
        self.undefinedVariable = undefinedVariable
    }
}

// MARK: - Names

extension StepResult {
    /// What reports call the step: its label, else `step N`.
    package var displayName: String { label ?? "step \(index + 1)" }
}

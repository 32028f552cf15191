package import APITestSupport

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

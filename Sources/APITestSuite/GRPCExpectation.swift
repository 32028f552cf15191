package import APITestSupport

/// `expect.grpc:` of a `grpc:` step: the status the call must end with (OK when not written: a call that ends with
/// another status fails the step unless the status is expected), and checks of the status message, its details
/// and the trailers.
package struct GRPCExpectation: Sendable, Hashable {
    /// The status codes accepted, by number; empty for OK.
    package var codes: [Int]
    /// Checks of the status document (`$.message`, `$.details`), evaluated on `{code, status, message, details}`.
    package var statusChecks: [Assertion]
    /// Checks of the trailers (trailing metadata), by name, as header checks.
    package var trailers: [Assertion]
    /// Where `expect.grpc` is written.
    package var location: SourceLocation

    /// An expectation written at `location`.
    package init(
        codes: [Int] = [], statusChecks: [Assertion] = [], trailers: [Assertion] = [], location: SourceLocation
    ) {
        self.codes = codes
        self.statusChecks = statusChecks
        self.trailers = trailers
        self.location = location
    }

    /// Whether a call that ended with `code` passes the status check.
    package func accepts(code: Int) -> Bool {
        codes.isEmpty ? code == 0 : codes.contains(code)
    }
}

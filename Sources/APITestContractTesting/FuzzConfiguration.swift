package import APITestRunner

/// What a fuzz run does: where it sends, what it generates, what it checks.
package struct FuzzConfiguration: Sendable {
    /// The API's base URL (the document's paths are appended to it).
    package var baseURL: String
    /// The seed of every generated value: the same seed makes the same cases.
    package var seed: UInt64 = 0
    /// Cases of the fuzzing phase per operation.
    package var maxExamples = 100
    /// The time the run may take; cases not started by then are not sent.
    package var duration: Duration?
    /// The phases run, in order.
    package var phases: [FuzzPhase] = FuzzPhase.allCases
    /// The checks applied.
    package var checks: [FuzzCheck] = FuzzCheck.allCases
    /// Headers every request carries (`--header`), credentials among them.
    package var headers: [BuiltRequest.Header] = []
    /// Requests in flight at once.
    package var concurrency = 10
    /// Time allowed per request, and to connect.
    package var timeout: Duration?
    package var connectTimeout: Duration?
    /// The run's TLS and transport flags as `run` reads them (`RunOptions(jobs:requests:security:transport:)`), with
    /// the session's settings; nil for the defaults (full verification, no proxy beyond the environment's).
    package var transfer: RequestTransfer?
    /// Attempts of shrinking per finding.
    package var shrinkAttempts = 40
    /// Only generate the cases, send nothing (`--dry-run`).
    package var dryRun = false

    /// A run against `baseURL` with the defaults.
    package init(baseURL: String) {
        self.baseURL = baseURL
    }
}

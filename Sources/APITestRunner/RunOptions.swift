package import APITestResults
package import APITestSecurity
import APITestSupport

/// How a run is carried out: every run setting of the command line, parsed once into this one model. The session's
/// transfer defaults are derived from it in one place, `RunService.sessionConfiguration(for:)`: `jobs` bounds both
/// the tests in flight and the connections kept, `timeout` and `connectTimeout` apply to requests that set none of
/// their own. The response size limit is set on every request (`RequestBuilder`), from the suite's
/// `defaults.maxResponseSize` or `maxResponseSize`.
package struct RunOptions: Sendable {
    /// Tests in flight at once; the steps inside a test always run in order.
    package var jobs: Int
    /// The most bytes of a body kept in results for reports.
    package var bodyPreviewLimit: Int
    /// Sent as `User-Agent` unless a suite sets its own.
    package var userAgent: String
    /// Once a host is found unreachable, the remaining tests that target it error at once with that cause.
    package var failFastUnreachable: Bool = true
    /// TLS flags laid over every suite's `security:` block.
    package var security = SecurityOverrides()
    /// The bytes that decoded response bodies may hold at once across the run's concurrent tests (see
    /// `DecodeBudget`): 1 GiB, four 64 MiB bodies being checked at a time.
    package var decodeMemoryBudget = 1 << 30
    /// Record the request headers as they went on the wire, libcurl's own included, into each exchange
    /// (`Exchange.sentRequestHeaders`), for `--verbose`.
    package var recordsSentHeaders = false
    /// Record what an HTTP archive shows of every exchange, for `--report-har`: the start of a binary response
    /// body (masked, base64-encoded) and the exchange of every attempt of a step that retries.
    package var recordsExchangeArchive = false
    /// Record every request as a curl command (`StepResult.reproduce`, with the order it was sent in), for
    /// `--curl`; without it only steps that fail or error carry one.
    package var recordsRequestCommands = false
    /// The most bytes of a response body kept in memory, for suites that set no `defaults.maxResponseSize`;
    /// `0` for no limit (`--max-response-size`). Bodies that no check reads are not kept, so not limited.
    package var maxResponseSize = RunOptions.defaultMaxResponseSize

    /// The time allowed for a whole transfer, for requests and suites that set none (`--timeout`); `nil` for the
    /// session's default (30 s).
    package var timeout: Duration?
    /// The time allowed to connect, for requests that set none (`--connect-timeout`); `nil` for the session's
    /// default (10 s).
    package var connectTimeout: Duration?
    /// The transport flags, which replace the suites' settings of the same name.
    package var transport = TransportOverrides()
    /// How many times a test that fails or errors is run again, afresh, for tests without their own `retries:`
    /// (`--retries N`; ``TestRetry``).
    package var retries = 0
    /// What `expect.snapshot` does with a missing or different snapshot (`--update-snapshots`, `CI`).
    package var snapshots = SnapshotSettings()
    /// The run's trace when it is exported (`OTEL_EXPORTER_OTLP_ENDPOINT`): every request then carries a W3C
    /// `traceparent` naming its step's span (``StepSpan``); nil sends none.
    package var tracing: TraceContext?

    /// 64 MiB.
    package static let defaultMaxResponseSize = 64 * 1024 * 1024

    /// Options for `jobs` tests at once (at least 1), keeping `bodyPreviewLimit` bytes of bodies for reports.
    package init(
        jobs: Int = 10,
        bodyPreviewLimit: Int = 64 * 1024,
        userAgent: String = "apitest/\(APITestVersion.string)"
    ) {
        self.jobs = max(1, jobs)
        self.bodyPreviewLimit = bodyPreviewLimit
        self.userAgent = userAgent
    }
}

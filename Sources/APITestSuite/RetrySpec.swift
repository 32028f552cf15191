package import APITestSupport

/// How a step is repeated: up to `attempts` times, `interval` apart, until `until` holds (or, without `until`,
/// until the step's own expectations hold). Polls a job until it is done; rides out a service that is starting.
package struct RetrySpec: Sendable, Hashable {
    /// Attempts in all, the first included (at least 1).
    package var attempts: Int
    /// The pause between two attempts.
    package var interval: Duration
    /// The condition that ends the polling; `nil` to retry until the step's `expect` holds.
    package var until: Expectations?
    package var location: SourceLocation

    package init(attempts: Int, interval: Duration = .seconds(1), until: Expectations? = nil, location: SourceLocation)
    {
        self.attempts = max(1, attempts)
        self.interval = interval
        self.until = until
        self.location = location
    }
}

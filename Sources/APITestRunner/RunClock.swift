/// The clock a run reads and waits on: the time a test or hook takes, and the waits between a step's attempts
/// (`retry`, `until` polling). A real run uses ``SystemClock``; the runner's unit tests give a clock that records
/// the waits asked of it and returns at once, so retries are tested without sleeping.
package protocol RunClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }

    /// Waits `duration`; throws `CancellationError` when the run is interrupted first.
    func sleep(for duration: Duration) async throws
}

/// The system's continuous clock, which keeps counting while the machine sleeps.
package struct SystemClock: RunClock {
    /// The system clock.
    package init() {}

    /// `ContinuousClock.now`.
    package var now: ContinuousClock.Instant { ContinuousClock.now }

    /// `Task.sleep(for:)`.
    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

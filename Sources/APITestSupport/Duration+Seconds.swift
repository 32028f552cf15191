// MARK: - Duration in seconds

extension Duration {
    /// The duration in seconds, as a `Double` (sub-nanosecond parts included).
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, rounded to microseconds: how reports write a time (`durationMs`, a step's
    /// `timings`).
    package var inReportMilliseconds: Double {
        (inSeconds * 1e6).rounded() / 1e3
    }
}

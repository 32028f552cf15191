// MARK: - Duration in seconds

extension Duration {
    /// The duration in seconds, as a `Double` (sub-nanosecond parts included).
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

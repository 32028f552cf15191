/// The `grpc-timeout` header's value for a deadline: at most eight digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`).
enum GRPCTimeout {
    /// The units, coarsest first, with their length in nanoseconds.
    private static let units: [(Character, Int64)] = [
        ("H", 3_600_000_000_000), ("M", 60_000_000_000), ("S", 1_000_000_000), ("m", 1_000_000), ("u", 1_000),
        ("n", 1),
    ]

    /// The largest number the header may carry.
    static let maxValue: Int64 = 99_999_999

    /// The value for `duration`: the coarsest unit that states it exactly in eight digits (`1500m` for 1.5 s),
    /// else the finest unit that holds it, rounded up (a deadline is never sent shorter than it is). A duration of
    /// zero or less is sent as `1n` (already past).
    static func headerValue(for duration: Duration) -> String {
        let nanoseconds = max(1, duration.nanoseconds)
        for (unit, length) in units where nanoseconds % length == 0 && nanoseconds / length <= maxValue {
            return "\(nanoseconds / length)\(unit)"
        }
        for (unit, length) in units.reversed() {
            let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: length)
            let value = quotient + (remainder > 0 ? 1 : 0)
            if value <= maxValue { return "\(value)\(unit)" }
        }
        return "\(maxValue)H"
    }
}

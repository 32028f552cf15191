/// Formats durations for people: `850 µs`, `3.4 ms`, `34 ms`, `1.2 s`, `2 min 5 s`, `1 h 2 min`.
package enum DurationFormatter {
    /// A short human-readable form of `duration`, precise to about two significant figures below a minute.
    package static func format(_ duration: Duration) -> String {
        let total = duration.inSeconds
        if total < 0 { return "-" + format(.zero - duration) }
        if total < 0.001 {
            return "\(Int((total * 1e6).rounded())) µs"
        }
        if total < 0.01 {
            return "\(oneDecimal(total * 1e3)) ms"
        }
        if total < 1 {
            let milliseconds = Int((total * 1e3).rounded())
            return milliseconds >= 1000 ? "1.0 s" : "\(milliseconds) ms"
        }
        if total < 60 {
            let text = oneDecimal(total)
            return text == "60.0" ? "1 min 0 s" : "\(text) s"
        }
        guard total < 1e15 else { return "\(Int(total / 3600)) h" }
        let wholeSeconds = Int(total.rounded())
        if wholeSeconds < 3600 {
            return "\(wholeSeconds / 60) min \(wholeSeconds % 60) s"
        }
        let minutes = wholeSeconds / 60
        return "\(minutes / 60) h \(minutes % 60) min"
    }

    /// `value` rounded to one decimal, always with the decimal (`3.0`, `12.5`).
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

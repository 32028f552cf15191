// MARK: - Cut with its size

extension String {
    /// The text cut to `limit` characters, saying how long it was (`… (1002 bytes)`); the text itself when it is
    /// no longer. The one cut of a value or message a result shows: the checks' messages and a step's sealing.
    package func truncated(to limit: Int) -> String {
        guard count > limit else { return self }
        return String(prefix(limit)) + "… (\(utf8.count) bytes)"
    }
}

import APITestSupport

/// `retry:`: how often a step is tried, how long to wait between tries, and the checks that end the polling.
enum RetryParser {
    /// The keys of `retry:`.
    static let keys = ["attempts", "interval", "until"]

    // MARK: - Retry

    /// `retry: {attempts: 10, interval: 500ms, until: {json: {$.state: done}}}`.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> RetrySpec? {
        guard let entries = context.mapping(node, for: "retry") else { return nil }
        context.checkKeys(entries, allowed: keys, in: "retry")
        guard let attemptsEntry = entries[key: "attempts"] else {
            context.error("'retry' needs 'attempts' (the number of tries, the first included)", at: node)
            return nil
        }
        guard let attempts = context.integer(attemptsEntry.value, for: "attempts", in: 1...10_000) else { return nil }
        var retry = RetrySpec(attempts: attempts, location: context.location(of: node))
        if let interval = entries[key: "interval"] {
            guard let parsed = context.duration(interval.value, for: "interval") else { return nil }
            retry.interval = parsed
        }
        if let until = entries[key: "until"] {
            let expectations = ExpectParser.parse(until.value, in: context)
            if expectations.status == nil, expectations.assertions.isEmpty, expectations.schema == nil {
                context.error("'until' is empty; give the checks that end the polling", at: until.value)
                return nil
            }
            retry.until = expectations
        }
        return retry
    }
}

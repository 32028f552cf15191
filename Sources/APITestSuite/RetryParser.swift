import APITestSupport
import APITestYAML

/// `retry:`: how often a step is tried, how long to wait between tries, and the checks that end the polling.
enum RetryParser {
    /// The keys of `retry:`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case attempts, interval, until

        var schema: SchemaValue {
            switch self {
            case .attempts:
                .described(
                    "The number of tries, the first included.", ["type": "integer", "minimum": 1, "maximum": 10000])
            case .interval: .described("The pause between tries.", ref: "duration")
            case .until:
                .described(
                    "Checks (an `expect` map) that end the polling; not empty.",
                    ["allOf": [.ref("expect"), ["type": "object", "minProperties": 1]]])
            }
        }

        /// The definition of `retry:`.
        static var definition: SchemaValue {
            .described(
                "Tries a step again: `{attempts: 10, interval: 500ms, until: {json: {$.state: done}}}`. Without "
                    + "`until`, a step is tried again while its expectations fail.",
                ["type": "object", "additionalProperties": false, "required": ["attempts"], "properties": properties])
        }
    }

    /// The keys of `retry:`, as written.
    static let keys = Key.names

    // MARK: - Retry

    /// `retry: {attempts: 10, interval: 500ms, until: {json: {$.state: done}}}`.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> RetrySpec? {
        guard let entries = context.mapping(node, for: "retry") else { return nil }
        context.checkKeys(entries, of: Key.self, in: "retry")
        guard let attemptsEntry = entries[Key.attempts] else {
            context.error("'retry' needs 'attempts' (the number of tries, the first included)", at: node)
            return nil
        }
        guard let attempts = context.integer(attemptsEntry.value, for: "attempts", in: 1...10_000) else { return nil }
        var retry = RetrySpec(attempts: attempts, location: context.location(of: node))
        if let interval = entries[Key.interval] {
            guard let parsed = context.duration(interval.value, for: "interval") else { return nil }
            retry.interval = parsed
        }
        if let until = entries[Key.until] {
            let expectations = ExpectParser.parse(until.value, in: context)
            if let snapshot = expectations.snapshot {
                context.error(
                    "'snapshot' does not apply to 'until'; compare the final response in 'expect'",
                    at: snapshot.location)
            }
            if expectations.status == nil, expectations.assertions.isEmpty, expectations.schema == nil {
                context.error("'until' is empty; give the checks that end the polling", at: until.value)
                return nil
            }
            retry.until = expectations
        }
        return retry
    }
}

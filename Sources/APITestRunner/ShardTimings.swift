import APITestJSON
import APITestSuite

// MARK: - ShardTimings

/// How long each test took in an earlier run (`--shard-timings previous.json`: a JSON report, as `--report-json`
/// writes it), by `suite name › test name`, and what each suite's `setup` and `teardown` cost.
package struct ShardTimings: Sendable, Hashable {
    /// Seconds per test, by `suite › test`.
    package var durations: [String: Double]
    /// Seconds of `setup` plus `teardown`, by suite name.
    package var suiteCosts: [String: Double]

    /// Timings from their parts.
    package init(durations: [String: Double], suiteCosts: [String: Double] = [:]) {
        self.durations = durations
        self.suiteCosts = suiteCosts
    }

    /// A JSON report that cannot serve as timings.
    package struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package var message: String
        package var description: String { message }
    }

    /// The timings of a JSON report (`{"suites": [{"name", "tests": [{"name", "durationMs"}]}]}`); skipped tests
    /// and tests that never finished carry no timing.
    package init(jsonReport bytes: [UInt8]) throws(ReadError) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ReadError(message: "not JSON: \(error)")
        }
        guard case .object(let root) = document, case .array(let suites)? = root["suites"] else {
            throw ReadError(message: "not an apitest JSON report (no 'suites' list)")
        }
        var durations: [String: Double] = [:]
        var suiteCosts: [String: Double] = [:]
        for suite in suites {
            guard case .object(let object) = suite, case .string(let suiteName)? = object["name"],
                case .array(let tests)? = object["tests"]
            else { throw ReadError(message: "a suite without 'name' or 'tests'") }
            for test in tests {
                guard case .object(let entry) = test, case .string(let name)? = entry["name"],
                    let milliseconds = entry["durationMs"]?.doubleValue, milliseconds.isFinite, milliseconds >= 0
                else { throw ReadError(message: "a test of suite '\(suiteName)' without 'name' or 'durationMs'") }
                if case .string(let status)? = entry["status"], status == "skipped" || status == "cancelled" {
                    continue
                }
                if name == "setup" || name == "teardown" {
                    suiteCosts[suiteName, default: 0] += milliseconds / 1000
                } else {
                    durations[TestSelection.fullName(suite: suiteName, test: name)] = milliseconds / 1000
                }
            }
        }
        self.init(durations: durations, suiteCosts: suiteCosts)
    }

    /// The median of the known durations: what a test without a timing is expected to take (0 when none is known).
    package var median: Double {
        let sorted = durations.values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

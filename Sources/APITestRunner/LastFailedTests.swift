import APITestJSON
package import APITestSuite
import APITestSupport

// MARK: - LastFailedTests

/// `--last-failed REPORT.json`: the tests that failed or errored in an earlier run's JSON report (or a merged
/// one), by suite file and test name, to run exactly those again. `setup` and `teardown` are not tests: a failed
/// setup's tests errored, and are listed themselves.
package struct LastFailedTests: Sendable, Hashable {
    /// A test the report says failed or errored.
    package struct Test: Sendable, Hashable {
        /// The suite file as the report names it.
        package var file: String
        package var suite: String
        package var name: String
    }

    /// The failed and errored tests, in the report's order.
    package private(set) var tests: [Test]
    /// Each test under its file as the report names it and as resolved from the current folder.
    private var keys: Set<Key> = []

    /// Why a report cannot be read.
    package struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// The failed and errored tests of the JSON report `bytes`.
    package init(jsonReport bytes: [UInt8]) throws(ReadError) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ReadError(message: "not JSON: \(error)")
        }
        guard case .object(let root) = document, case .array(let suites)? = root["suites"] else {
            if case .object(let root) = document, root["kind"] == .string("load") {
                throw ReadError(
                    message:
                        "a report of apitest load, which runs no test to fail; use the JSON report of apitest run (--report-json)"
                )
            }
            if case .object(let root) = document, root["reportFormat"] == .string("CTRF") {
                throw ReadError(message: "a CTRF report; use the JSON report of apitest run (--report-json)")
            }
            throw ReadError(message: "not an apitest JSON report (no 'suites' list)")
        }
        var tests: [Test] = []
        for suite in suites {
            guard case .object(let object) = suite, case .string(let suiteName)? = object["name"],
                case .string(let file)? = object["file"], case .array(let entries)? = object["tests"]
            else { throw ReadError(message: "a suite without 'name', 'file' or 'tests'") }
            for entry in entries {
                guard case .object(let test) = entry, case .string(let name)? = test["name"],
                    case .string(let status)? = test["status"]
                else { throw ReadError(message: "a test of suite '\(suiteName)' without 'name' or 'status'") }
                guard status == "failed" || status == "errored", name != "setup", name != "teardown" else { continue }
                tests.append(Test(file: file, suite: suiteName, name: name))
            }
        }
        self.tests = tests
        keys = Set(
            tests.flatMap { [Key(file: $0.file, name: $0.name), Key(file: Self.canonical($0.file), name: $0.name)] })
    }

    /// Whether `test` of `suite` is one of the report's failed tests: the same name in the same suite file (as
    /// the report names it, or the same file once both paths are resolved from the current folder).
    package func contains(_ test: TestCase, in suite: Suite) -> Bool {
        keys.contains(Key(file: Self.canonical(suite.file), name: test.name))
            || keys.contains(Key(file: suite.file, name: test.name))
    }

    /// The report's failed tests that none of `suites` has any more (renamed, removed, or their file moved).
    package func missing(in suites: [Suite]) -> [Test] {
        var present: Set<Key> = []
        for suite in suites {
            let canonical = Self.canonical(suite.file)
            for test in suite.tests {
                present.insert(Key(file: canonical, name: test.name))
                present.insert(Key(file: suite.file, name: test.name))
            }
        }
        return tests.filter { test in
            !present.contains(Key(file: test.file, name: test.name))
                && !present.contains(Key(file: Self.canonical(test.file), name: test.name))
        }
    }

    // MARK: - Matching

    private struct Key: Hashable {
        var file: String
        var name: String
    }

    private static func canonical(_ path: String) -> String {
        FilePaths.canonical(path)
    }
}

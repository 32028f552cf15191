import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// The selection ``SelectionOptions`` make (which tests run).
extension SelectionOptions {
    /// The selection: the one ``validate()`` made; options never validated make it now, the same way.
    func selection() throws -> TestSelection {
        try validated ?? makeSelection()
    }

    /// The one conversion of the options into the selection they describe (the timings file read here).
    func makeSelection() throws -> TestSelection {
        var filters: [TestFilter] = []
        for pattern in filter {
            do {
                filters.append(try TestFilter(pattern))
            } catch {
                throw ValidationError(error.description)
            }
        }
        for name in tag + excludeTag where name.isEmpty { throw ValidationError("a tag cannot be empty") }
        let spec = try shardSpec()
        var timings: ShardTimings?
        if let shardTimings {
            guard let data = FileManager.default.contents(atPath: shardTimings) else {
                throw ValidationError("--shard-timings '\(shardTimings)': cannot read the file")
            }
            do {
                timings = try ShardTimings(jsonReport: Array(data))
            } catch {
                throw ValidationError("--shard-timings '\(shardTimings)': \(error.message)")
            }
        }
        var selection = TestSelection(
            filters: filters, tags: tag, excludedTags: excludeTag, shard: spec, timings: timings)
        selection.lastFailed = try readLastFailed()
        return selection
    }

    /// `--shard K/N` parsed, `nil` without the flag; the usage error for one that is not K/N with 1 <= K <= N.
    private func shardSpec() throws -> ShardSpec? {
        guard let shard else { return nil }
        do {
            return try ShardSpec(parsing: shard)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Applies the selection to `suites` (without its shard unless `sharded`). When the filters and tags match no
    /// test, says so on `errorOutput` and throws exit code 4; when only the shard is empty, says so and returns the
    /// empty result (nothing to run is then a success, so a CI matrix wider than the test count passes). When a
    /// selected test needs an environment variable that is unset (suites loaded deferring them), prints each use
    /// as the loader prints its errors and throws exit code 2 (``SuiteOptions/loadSuites``). Only the selected tests
    /// that `sends` (by default those not skipped: a skipped test renders nothing) need their variables; the load
    /// passes ``sendsInLoad(_:)``.
    func select(
        _ suites: [Suite], errorOutput: TextOutput, colored: Bool = false, sharded: Bool = true,
        sends: (TestCase) -> Bool = Self.sendsInRun
    ) throws -> TestSelection.Result {
        var selection = try selection()
        if !sharded { selection.shard = nil }
        try checkLastFailed(selection.lastFailed, in: suites, errorOutput: errorOutput)
        let result = selection.apply(to: suites)
        try checkEnvironment(of: result, in: suites, errorOutput: errorOutput, colored: colored, sends: sends)
        if selection.narrows && result.matchedCount == 0 {
            errorOutput.write(
                "apitest: no test matches \(describe()) (of \(counted(result.totalCount))); nothing to run.\n")
            errorOutput.flush()
            throw ExitStatus.noTestsSelected.exitCode
        }
        if let shard = result.shard, result.tests.isEmpty {
            errorOutput.write(
                "apitest: shard \(shard) has no tests (\(counted(result.matchedCount)) selected in all); nothing to run.\n"
            )
            errorOutput.flush()
        }
        return result
    }

    /// Whether a selected test sends requests in a run (or is listed as one that would): every test but a skipped
    /// one (`skip:`), which renders nothing, so its unset environment variables are nobody's concern.
    static func sendsInRun(_ test: TestCase) -> Bool {
        test.skip == nil
    }

    /// Whether a selected test sends requests in a load: neither skipped nor `load: {weight: 0}`, which is never
    /// picked.
    static func sendsInLoad(_ test: TestCase) -> Bool {
        sendsInRun(test) && test.loadWeight > 0
    }

    /// Refuses (exit code 2) a selection whose tests need environment variables that are unset: each use printed
    /// as the loader prints a file's errors, then the count. Only the selected tests that `sends` count, with the
    /// suite-level parts and variables they need (``UnsetEnvironment``); an unselected test's unset variable is
    /// nobody's concern, and no more is that of a test that sends nothing (a suite whose selected tests are all
    /// skipped runs no setup).
    private func checkEnvironment(
        of result: TestSelection.Result, in suites: [Suite], errorOutput: TextOutput, colored: Bool,
        sends: (TestCase) -> Bool
    ) throws {
        guard suites.contains(where: { !$0.unsetEnvironment.isEmpty }) else { return }
        var selected = [[Int]](repeating: [], count: suites.count)
        for entry in result.tests where sends(suites[entry.suiteIndex].tests[entry.testIndex]) {
            selected[entry.suiteIndex].append(entry.testIndex)
        }
        var errorCount = 0
        var fileCount = 0
        for (index, suite) in suites.enumerated() where !suite.unsetEnvironment.isEmpty {
            let errors = suite.unsetEnvironment.errors(forTests: selected[index])
            guard !errors.isEmpty else { continue }
            errorOutput.write(suite.unsetEnvironment.failure(errors).render(colored: colored) + "\n")
            errorCount += errors.count
            fileCount += 1
        }
        guard errorCount > 0 else { return }
        let errors = errorCount == 1 ? "1 error" : "\(errorCount) errors"
        let files = fileCount == 1 ? "1 file" : "\(fileCount) files"
        errorOutput.write("\(errors) in \(files); nothing was run.\n")
        errorOutput.flush()
        throw ExitStatus.invalid.exitCode
    }

    /// The selection flags as given, e.g. `--filter 'login' --tag smoke`.
    func describe() -> String {
        var parts: [String] = []
        parts += filter.map { "--filter '\($0)'" }
        parts += tag.map { "--tag \($0)" }
        parts += excludeTag.map { "--exclude-tag \($0)" }
        if let lastFailed { parts.append("--last-failed '\(lastFailed)'") }
        return parts.joined(separator: " ")
    }

    private func counted(_ count: Int) -> String { count == 1 ? "1 test" : "\(count) tests" }
}

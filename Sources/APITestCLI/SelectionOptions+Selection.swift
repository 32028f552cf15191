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
        return TestSelection(filters: filters, tags: tag, excludedTags: excludeTag, shard: spec, timings: timings)
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
    /// empty result (nothing to run is then a success, so a CI matrix wider than the test count passes).
    func select(_ suites: [Suite], errorOutput: TextOutput, sharded: Bool = true) throws -> TestSelection.Result {
        var selection = try selection()
        if !sharded { selection.shard = nil }
        let result = selection.apply(to: suites)
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

    /// The selection flags as given, e.g. `--filter 'login' --tag smoke`.
    func describe() -> String {
        var parts: [String] = []
        parts += filter.map { "--filter '\($0)'" }
        parts += tag.map { "--tag \($0)" }
        parts += excludeTag.map { "--exclude-tag \($0)" }
        return parts.joined(separator: " ")
    }

    private func counted(_ count: Int) -> String { count == 1 ? "1 test" : "\(count) tests" }
}

import Foundation
import Testing

/// `bench/throughput` measures what it says: paired rounds in alternating order, the median of the per-round ratios,
/// every round's figures in its JSON, and no figures for a binary that skips its work. Small counts and the debug
/// binary keep each run to a few seconds; the figures themselves are not judged.
@Suite struct ThroughputBenchTests {
    /// The repository's root, from this file's path (`<root>/Tests/IntegrationTests/ThroughputBenchTests.swift`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A fresh folder for one run's logs and results.json.
    func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-throughput-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `bench/throughput` with `arguments` (plus `--out` into `folder`) and returns its result.
    func bench(_ arguments: [String], out folder: URL) async throws -> ProcessResult {
        try await runProcess(
            Self.repository.appendingPathComponent("bench/throughput"), arguments + ["--out", folder.path],
            timeout: .seconds(180))
    }

    /// The JSON document the run printed on stdout.
    func document(_ result: ProcessResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "stdout: \(result.stdout.prefix(500))")
    }

    /// The median of `values` (the mean of the middle two for an even count).
    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    @Test func pairedRoundsAlternateAndTheirMedianIsReported() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let apitest = try TestBinaries.url("apitest")
        let result = try await bench(
            [
                "--apitest", apitest.path, "--count", "30", "--runs", "3", "--counts", "10,30,60", "--curve-runs", "1",
                "--jobs", "4", "--wrk-duration", "1s", "--openapi-rounds", "2", "--ceiling-rounds", "3", "--json",
            ], out: folder)
        #expect(result.exitCode == 0, "\(result.stderr.suffix(2000))")
        let json = try document(result)
        let sanity = try #require(json["sanity"] as? [String: Any])
        #expect(sanity["passExitCode"] as? Int == 0)
        #expect(sanity["failExitCode"] as? Int == 1)
        #expect(json["curve"] as? [Int] == [10, 30, 60])

        let points = try #require(json["points"] as? [[String: Any]])
        #expect(points.map { $0["count"] as? Int } == [10, 30, 60])
        // Points up to --count get --runs rounds, larger ones --curve-runs.
        #expect(points.map { $0["roundsPlanned"] as? Int } == [3, 3, 1])
        #expect(points.map { $0["inTable"] as? Bool } == [false, true, false])
        for point in points {
            let count = try #require(point["count"] as? Int)
            let apitestFigures = try #require(point["apitest"] as? [String: Any])
            #expect(apitestFigures["status"] as? String == "ok", "\(apitestFigures)")
            let rounds = try #require(point["roundFigures"] as? [[String: Any]])
            #expect(rounds.count == point["roundsPlanned"] as? Int)
            var ratios: [Double] = []
            for (index, round) in rounds.enumerated() {
                #expect(round["round"] as? Int == index + 1)
                #expect(round["first"] as? String == (index % 2 == 0 ? "apitest" : "curl"), "the order alternates")
                let apitestRun = try #require(round["apitest"] as? [String: Any])
                let curlRun = try #require(round["curl"] as? [String: Any])
                // nginx's own counter: every test and every URL was fetched.
                #expect(apitestRun["served"] as? Int == count)
                #expect(curlRun["served"] as? Int == count)
                #expect((apitestRun["peakRSSMiB"] as? Double ?? 0) > 0)
                let apitestWall = try #require(apitestRun["wallSeconds"] as? Double)
                let curlWall = try #require(curlRun["wallSeconds"] as? Double)
                let ratio = try #require(round["apitestOverCurl"] as? Double)
                // The script writes ratios with 4 decimals: half a unit of the last one, on top of 0.1 %.
                #expect(abs(ratio - curlWall / apitestWall) < 0.001 * ratio + 0.00005)
                ratios.append(curlWall / apitestWall)
            }
            let reported = try #require(point["apitestOverCurl"] as? [String: Any])
            let medianOfRounds = try #require(reported["medianOfRounds"] as? Double)
            #expect(abs(medianOfRounds - median(ratios)) < 0.001 * medianOfRounds + 0.00005)
        }

        let targets = try #require(json["targets"] as? [[String: Any]])
        let names = targets.compactMap { $0["name"] as? String }
        #expect(names.contains { $0.hasPrefix("apitest / curl >= 1.2x") })
        #expect(names.contains { $0.hasPrefix("no fall: 30 >= 0.9x 10") })
        #expect(names.contains { $0.hasPrefix("no fall: 60 >= 0.9x 10") })
        let curlTarget = try #require(targets.first { ($0["name"] as? String)?.hasPrefix("apitest / curl") == true })
        #expect(curlTarget["holds"] is Bool, "measured, so the target holds or not: \(curlTarget)")

        // The OpenAPI variant: paired rounds without and with --openapi, alternating, their median ratio a target.
        let openapi = try #require(json["openapi"] as? [String: Any])
        #expect(openapi["status"] as? String == "ok", "\(openapi)")
        let openapiRounds = try #require(openapi["rounds"] as? [[String: Any]])
        #expect(openapiRounds.map { $0["first"] as? String } == ["plain", "contract"])
        let overheads = openapiRounds.compactMap { round -> Double? in
            guard let with = round["withWallSeconds"] as? Double, let without = round["withoutWallSeconds"] as? Double
            else { return nil }
            return with / without
        }
        #expect(overheads.count == 2)
        let openapiMedian = try #require(openapi["medianOfRounds"] as? Double)
        #expect(abs(openapiMedian - median(overheads)) < 0.001 * openapiMedian)
        let openapiTarget = try #require(
            targets.first { ($0["name"] as? String)?.hasPrefix("--openapi costs") == true })
        #expect(openapiTarget["holds"] is Bool, "\(openapiTarget)")

        // The ceiling: the same URLs with nothing to check against curl, alternating, and loading alone.
        let ceiling = try #require(json["ceiling"] as? [String: Any])
        #expect(ceiling["status"] as? String == "ok", "\(ceiling)")
        let ceilingRounds = try #require(ceiling["rounds"] as? [[String: Any]])
        #expect(ceilingRounds.map { $0["first"] as? String } == ["apitest", "curl", "apitest"])
        let headroom = ceilingRounds.compactMap { round -> Double? in
            guard let curl = round["curlWallSeconds"] as? Double,
                let unchecked = round["uncheckedWallSeconds"] as? Double
            else { return nil }
            return curl / unchecked
        }
        #expect(headroom.count == 3)
        #expect(ceilingRounds.allSatisfy { ($0["validateWallSeconds"] as? Double ?? 0) > 0 })
        let uncheckedOverCurl = try #require(ceiling["uncheckedOverCurl"] as? [String: Any])
        let ceilingMedian = try #require(uncheckedOverCurl["medianOfRounds"] as? Double)
        #expect(abs(ceilingMedian - median(headroom)) < 0.001 * ceilingMedian + 0.00005)
        // libyaml's bare parse of the suite, built from bench/libyaml-parse.c with the machine's C compiler.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/cc") {
            #expect((ceiling["libyamlParseMilliseconds"] as? Double ?? 0) > 0, "\(ceiling)")
        } else {
            #expect(!(ceiling["libyamlNote"] as? String ?? "").isEmpty, "\(ceiling)")
        }

        // The same document is written beside the logs.
        let written = try Data(contentsOf: folder.appendingPathComponent("results.json"))
        #expect(String(decoding: written, as: UTF8.self) == result.stdout)
    }

    /// Stand-ins for apitest that do no work, and the note the benchmark must give instead of figures.
    static let cheats: [(script: String, note: String)] = [
        ("exit 0", "sanity check: a suite that must fail exited 0"),
        ("case \"$2\" in *sanity-fail*) exit 1 ;; esac\nexit 0", "nginx served 0 requests for 20 tests"),
    ]

    /// A real apitest that drops `--openapi` (so it checks no contract) is caught by the variant's sanity check.
    @Test func aBinaryThatIgnoresTheContractGetsNoOpenAPIFigures() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("contract-blind-apitest")
        let real = try TestBinaries.url("apitest").path
        let script = """
            #!/bin/bash
            args=()
            while [[ $# -gt 0 ]]; do
                if [[ "$1" == --openapi ]]; then shift 2; else args+=("$1"); shift; fi
            done
            exec '\(real)' "${args[@]}"
            """
        try script.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let result = try await bench(
            [
                "--apitest", fake.path, "--count", "20", "--runs", "1", "--no-curve", "--wrk-duration", "1s",
                "--openapi-rounds", "2", "--json",
            ], out: folder)
        #expect(result.exitCode == 0, "\(result.stderr.suffix(2000))")
        let json = try document(result)
        let openapi = try #require(json["openapi"] as? [String: Any])
        #expect(openapi["status"] as? String == "failed", "\(openapi)")
        #expect((openapi["note"] as? String ?? "").contains("with a wrong schema exit 0 (expected 1)"), "\(openapi)")
        #expect(openapi["medianOfRounds"] is NSNull)
    }

    @Test(arguments: 0..<cheats.count)
    func aBinaryThatSkipsItsWorkGetsNoFigures(_ index: Int) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("fake-apitest")
        try "#!/bin/sh\n\(Self.cheats[index].script)\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let result = try await bench(
            ["--apitest", fake.path, "--count", "20", "--runs", "2", "--no-curve", "--wrk-duration", "1s", "--json"],
            out: folder)
        #expect(result.exitCode == 0, "the benchmark reports, it does not gate: \(result.stderr.suffix(2000))")
        let json = try document(result)
        let points = try #require(json["points"] as? [[String: Any]])
        #expect(points.count == 1)
        let apitestFigures = try #require(points.first?["apitest"] as? [String: Any])
        #expect(apitestFigures["status"] as? String != "ok")
        #expect(apitestFigures["medianRequestsPerSecond"] is NSNull)
        #expect((apitestFigures["note"] as? String ?? "").contains(Self.cheats[index].note), "\(apitestFigures)")
        let targets = try #require(json["targets"] as? [[String: Any]])
        let curlTarget = try #require(targets.first { ($0["name"] as? String)?.hasPrefix("apitest / curl") == true })
        #expect(curlTarget["holds"] is NSNull, "no verdict without figures")
        #expect(result.stderr.contains("apitest binary not built / failed"))
    }

    @Test(arguments: [["--runs", "0"], ["--counts", "1000,x"], ["--curve-runs", "-1"], ["--no-such-option"]])
    func aWrongOptionStopsTheBenchmarkWithExitCode2(_ arguments: [String]) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await bench(arguments + ["--apitest", "/nonexistent"], out: folder)
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

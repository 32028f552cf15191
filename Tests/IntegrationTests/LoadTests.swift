import Foundation
import Testing

/// `apitest load` end to end against the demo API: every scheduled iteration starts, thresholds decide the exit code
/// and the reports, a server that stalls shows in the open model's percentiles (latency from the intended start)
/// and not in a closed loop's, Ctrl-C stops the load and still tears down, and bad flags are usage errors.
@Suite(.serialized) struct LoadTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func report(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["load"] as? [String: Any])
    }

    /// Checks the load JSON reports at `paths` against `schemas/load-report.schema.json` (Python's jsonschema).
    func expectValidReports(_ paths: [String]) async throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas/load-report.schema.json")
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                jsonschema.validate(json.load(open(path)), schema, cls=jsonschema.Draft202012Validator)
            print("valid")
            """
        let checked = try await runProcess(try TestBinaries.tool("python3"), ["-c", script, schema.path] + paths)
        #expect(checked.stdout == "valid\n", "\(checked.stderr)")
    }

    /// The latency percentile `percentile` of a histogram as the JSON report holds it (`counts`: [[value, count]]),
    /// computed here from the buckets, in microseconds.
    static func percentile(_ histogram: [String: Any], _ percentile: Double) -> UInt64 {
        let counts = (histogram["counts"] as? [[NSNumber]] ?? []).map { ($0[0].uint64Value, $0[1].uint64Value) }
        let total = counts.reduce(0) { $0 + $1.1 }
        let wanted = max(1, UInt64((percentile / 100 * Double(total)).rounded(.up)))
        var seen: UInt64 = 0
        for (value, count) in counts {
            seen += count
            if seen >= wanted { return value }
        }
        return 0
    }

    @Test func everyScheduledIterationStartsAndThresholdsDecideTheExit() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "load.yaml",
            """
            name: demo
            baseURL: \(demo.baseURL)
            tests:
              - name: health
                load: {weight: 3}
                request: {url: /health}
                expect: {status: 200, json: {$.status: ok}}
              - name: json
                request: {url: /json}
                expect: {status: 200}
              - name: never
                load: {weight: 0}
                request: {url: /status/500}
            """)
        let json = directory.appendingPathComponent("load.json").path
        let junit = directory.appendingPathComponent("load.xml").path
        let html = directory.appendingPathComponent("load.html").path
        let failing = try await runAPITest([
            "load", suite, "--rate", "100/s", "--duration", "2s", "--threshold", "errors<1%", "--threshold", "max<1us",
            "--report-json", json, "--report-junit", junit, "--report-html", html,
        ])
        #expect(failing.exitCode == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("load: open model, 100.0/s for 2.00 s"), "\(failing.stdout)")
        #expect(failing.stdout.contains("  ✔ errors<1% (0.00 %)"), "\(failing.stdout)")
        #expect(failing.stdout.contains("  ✘ max<1us ("), "\(failing.stdout)")
        let load = try report(json)
        let counts = try #require(load["counts"] as? [String: Int])
        // 100/s for 2 s: iterations 0 to 199 start at k/100 s, each of them, whatever the server does.
        #expect(counts["started"] == 200 && counts["completed"] == 200 && counts["passed"] == 200, "\(counts)")
        let tests = try #require(load["tests"] as? [[String: Any]])
        // Weights 3 and 1 (and 0: never picked): three of every four iterations are the first test's.
        #expect(tests.map { $0["name"] as? String } == ["health", "json"])
        #expect(tests.map { ($0["counts"] as? [String: Int])?["completed"] } == [150, 50])
        let latency = try #require(load["latency"] as? [String: Any])
        #expect((latency["counts"] as? [[Int]])?.reduce(0) { $0 + $1[1] } == 200)
        let thresholds = try #require(load["thresholds"] as? [[String: Any]])
        #expect(thresholds.map { $0["holds"] as? Bool } == [true, false])
        #expect(
            thresholds.map { ($0["threshold"] as? [String: Any])?["metric"] as? String } == ["errors", "max"])
        try await expectValidReports([json])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"2\" failures=\"1\""), "\(xml)")
        #expect(xml.contains("<failure message=\"threshold max&lt;1us failed: measured "))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<title>apitest load</title>") && page.contains("<code>max&lt;1us</code>"))
        // The seconds of the run, the last partial one included, each a bar.
        let seconds = (load["timeline"] as? [[String: Any]])?.count ?? 0
        #expect((2...3).contains(seconds), "\(load["timeline"] ?? "")")
        #expect(page.components(separatedBy: "<rect class=\"bar\" ").count - 1 == seconds)
        #expect(
            (load["timeline"] as? [[String: Any]])?.reduce(0) { $0 + ($1["completed"] as? Int ?? 0) } == 200,
            "every completion is in a second of the timeline")

        let passing = try await runAPITest([
            "load", suite, "--rate", "50/s", "--duration", "1s", "--threshold", "p99<10s", "--threshold", "rate>10/s",
        ])
        #expect(passing.exitCode == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("iterations: 50 started, 50 completed (50 passed"), "\(passing.stdout)")
    }

    @Test func aStallShowsInTheOpenModelsPercentilesAndNotInAClosedLoops() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "stall.yaml",
            """
            name: stall
            baseURL: \(demo.baseURL)
            tests:
              - name: ping
                request: {url: /stall/ping}
                expect: {status: 200}
            """)
        // The issue's figures: the server stalls for 1 s once, 2 s after the load's first request, in a 10 s run at
        // 1,000/s (however long apitest took to start).
        func run(_ model: [String], report: String) async throws -> (ProcessResult, [String: Any]) {
            let before = try await CurlExchange.run(demo.baseURL + "/stall/count", [])
            async let result = runAPITest(["load", suite, "--duration", "10s", "--report-json", report] + model)
            for _ in 0..<300 {
                let count = try await CurlExchange.run(demo.baseURL + "/stall/count", [])
                if count.body != before.body { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Task.sleep(for: .milliseconds(2_000))
            let armed = try await CurlExchange.run(demo.baseURL + "/stall/arm?ms=1000", ["-X", "POST"])
            #expect(armed.status == 200)
            let finished = try await result
            return (finished, try self.report(report))
        }
        let (open, openReport) = try await run(
            ["--rate", "1000/s"], report: directory.appendingPathComponent("open.json").path)
        #expect(open.exitCode == 0, "\(open.stdout)\(open.stderr)")
        let openLatency = try #require(openReport["latency"] as? [String: Any])
        // Arrivals keep coming during the stall and wait for its end (at most 100 in flight, the default: the others
        // start late, and their latency still counts from when they were meant to start): those of its 1 s wait from 1 s down to 0, so
        // the share of samples above x is (1 s - x) / 10 s, and the theoretical p99 is 1 s - 1 % × 10 s = 900 ms.
        // Measured from each iteration's intended start, p99 shows it (less a little for timing).
        let theoreticalP99: UInt64 = 1_000_000 - 10_000_000 / 100
        let openP99 = Self.percentile(openLatency, 99)
        #expect(openP99 >= theoreticalP99 - 60_000, "open p99 \(openP99) µs, theory \(theoreticalP99): \(open.stdout)")
        // Above the stall only by the time the backlog takes to drain (100 in flight at most), which a loaded
        // machine running the debug build stretches: a bound against nonsense, not a measurement.
        #expect(openP99 <= 5_000_000, "open p99 \(openP99) µs: \(open.stdout)")
        // p90: (1 s - x) / 10 s = 10 % gives x = 0: the stall's arrivals are exactly the slowest tenth.
        #expect(Self.percentile(openLatency, 95) >= 500_000 - 60_000, "open p95: \(open.stdout)")

        let (closed, closedReport) = try await run(
            ["--vus", "2"], report: directory.appendingPathComponent("closed.json").path)
        #expect(closed.exitCode == 0, "\(closed.stdout)\(closed.stderr)")
        let closedLatency = try #require(closedReport["latency"] as? [String: Any])
        // Two users each wait out the stall once: two slow samples among thousands, so the closed loop's p99 does
        // not see the stall at all (coordinated omission), though its maximum does.
        #expect((closedLatency["max"] as? Int ?? 0) >= 900_000, "closed: \(closed.stdout)")
        let closedP99 = Self.percentile(closedLatency, 99)
        #expect(closedP99 < 200_000 && closedP99 < openP99 / 4, "closed p99 \(closedP99) µs: \(closed.stdout)")
        #expect(closed.stdout.contains("load: closed model, 2 virtual users for 10.0 s"), "\(closed.stdout)")
    }

    @Test func abortOnFailStopsTheLoadAtTheFirstFailedThreshold() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "abort.yaml",
            """
            name: abort
            baseURL: \(demo.baseURL)
            tests:
              - name: teapot
                request: {url: /status/418}
                expect: {status: 200}
            """)
        let started = ContinuousClock.now
        let result = try await runAPITest([
            "load", suite, "--rate", "50/s", "--duration", "60s", "--threshold", "errors<1%", "--abort-on-fail",
        ])
        #expect(ContinuousClock.now - started < .seconds(30), "the 60 s load was not stopped")
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("threshold errors<1% failed"), "\(result.stdout)")
        #expect(result.stdout.contains("  ✘ errors<1% (100.00 %)"), "\(result.stdout)")
        #expect(result.stdout.contains("expected status 200, got 418"), "\(result.stdout)")
    }

    @Test func ctrlCStopsTheLoadTearsDownAndReportsWhatRan() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "hooks.yaml",
            """
            name: hooks
            baseURL: \(demo.baseURL)
            setup:
              - request: {url: /health}
            teardown:
              - request: {url: /health}
            tests:
              - name: ping
                request: {url: /stall/ping}
            """)
        let json = directory.appendingPathComponent("interrupted.json").path
        let process = Process()
        process.executableURL = try TestBinaries.url("apitest")
        process.arguments = ["load", suite, "--rate", "50/s", "--duration", "60s", "--report-json", json]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = OneShotValue<Int32>()
        process.terminationHandler = { exited.fulfill($0.terminationStatus) }
        try process.run()
        // The signal comes once the load is under way: after its first iterations reached the server.
        for _ in 0..<300 {
            let count = try await CurlExchange.run(demo.baseURL + "/stall/count", [])
            if String(decoding: count.body, as: UTF8.self) != "{\"pings\":0}" { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let took = try await SpecialFileTests.exitTimeAfterSignal(
            process.processIdentifier, SIGINT, after: .milliseconds(300), exited: exited)
        let status = await exited.wait()
        #expect(status == 130)
        if let took { #expect(took < .seconds(10)) }
        let load = try report(json)
        #expect(load["interrupted"] as? Bool == true)
        let hooks = try #require(load["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["name"] as? String } == ["setup", "teardown"])
        #expect(hooks.map { $0["status"] as? String } == ["passed", "passed"])
        #expect(((load["counts"] as? [String: Int])?["completed"] ?? 0) > 0)
        try await expectValidReports([json])
    }

    @Test func threeShardsMergeIntoOneLoadWithTheHistogramOfAllTheirSamples() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "shards.yaml",
            """
            name: shards
            baseURL: \(demo.baseURL)
            tests:
              - name: health
                request: {url: /health}
              - name: delayed
                request: {url: /delay/2}
            """)
        // Three generators side by side, each running a third of 300/s: one load of 300/s.
        let reports = (1...3).map { directory.appendingPathComponent("shard-\($0).json").path }
        async let first = runAPITest(
            [
                "load", suite, "--rate", "300/s", "--duration", "2s", "--shard", "1/3", "--report-json", reports[0],
                "--threshold", "p99<10s",
            ])
        async let second = runAPITest(
            [
                "load", suite, "--rate", "300/s", "--duration", "2s", "--shard", "2/3", "--report-json", reports[1],
                "--threshold", "p99<10s",
            ])
        async let third = runAPITest(
            [
                "load", suite, "--rate", "300/s", "--duration", "2s", "--shard", "3/3", "--report-json", reports[2],
                "--threshold", "p99<10s",
            ])
        for result in try await [first, second, third] {
            #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("load: open model, 100.0/s for 2.00 s (shard "), "\(result.stdout)")
        }
        let merged = directory.appendingPathComponent("merged.json").path
        let merge = try await runAPITest(["merge"] + reports.reversed() + ["--report-json", merged])
        #expect(merge.exitCode == 0, "\(merge.stdout)\(merge.stderr)")
        #expect(merge.stdout.contains("load: open model, 300.0/s for 2.00 s\n"), "\(merge.stdout)")
        #expect(merge.stdout.contains("iterations: 600 started, 600 completed (600 passed"), "\(merge.stdout)")
        // The merged histogram is the sum of the shards', bucket by bucket: its percentiles are those of one
        // histogram fed every sample.
        var summed: [Int: Int] = [:]
        for report in reports {
            let latency = try #require(try self.report(report)["latency"] as? [String: Any])
            for pair in latency["counts"] as? [[Int]] ?? [] { summed[pair[0], default: 0] += pair[1] }
        }
        let mergedLoad = try self.report(merged)
        let mergedLatency = try #require(mergedLoad["latency"] as? [String: Any])
        var mergedBuckets: [Int: Int] = [:]
        for pair in mergedLatency["counts"] as? [[Int]] ?? [] { mergedBuckets[pair[0], default: 0] += pair[1] }
        #expect(mergedBuckets == summed)
        #expect(summed.values.reduce(0, +) == 600)
        let allSamples = ["counts": summed.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }]
        for percentile in [50.0, 90, 99, 99.9] {
            #expect(Self.percentile(mergedLatency, percentile) == Self.percentile(allSamples, percentile))
        }
        let thresholds = try #require(mergedLoad["thresholds"] as? [[String: Any]])
        #expect(thresholds.first?["holds"] as? Bool == true)
        try await expectValidReports(reports + [merged])

        let missing = try await runAPITest(["merge", reports[0], reports[2]])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("shard 2/3 missing"), "\(missing.stderr)")
        let twice = try await runAPITest(["merge", reports[0], reports[0]])
        #expect(twice.stderr.contains("are both shard 1/3"), "\(twice.stderr)")
    }

    @Test func aSuitesThresholdsJoinTheCommandLines() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "thresholds.yaml",
            """
            name: thresholds
            baseURL: \(demo.baseURL)
            load:
              thresholds: ["max<1us", "errors<1%"]
            tests:
              - name: health
                request: {url: /health}
            """)
        let result = try await runAPITest([
            "load", suite, "--rate", "20/s", "--duration", "1s", "--threshold", "errors<1%", "--threshold", "p99<10s",
        ])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        // The command line's first, then the suite's that are not already there.
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ✔ ") || $0.hasPrefix("  ✘ ") }
        #expect(lines.map { String($0.prefix(13)) } == ["  ✔ errors<1%", "  ✔ p99<10s (", "  ✘ max<1us ("], "\(lines)")
        let broken = try write(
            "broken.yaml",
            "baseURL: http://127.0.0.1:9\nload:\n  thresholds: [p95 < 20]\ntests:\n  - name: t\n    request: {url: /}\n"
        )
        let invalid = try await runAPITest(["load", broken, "--rate", "1/s", "--duration", "1s"])
        #expect(invalid.exitCode == 2)
        #expect(invalid.stderr.contains("error: threshold 'p95 < 20': a latency needs a unit"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("broken.yaml:3:16"), "\(invalid.stderr)")
    }

    @Test func aTerminalSeesALiveLineEachSecond() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            "live.yaml", "baseURL: \(demo.baseURL)\ntests:\n  - name: health\n    request: {url: /health}\n")
        // util-linux's script(1) gives apitest a terminal; the live line is rewritten in place, then cleared.
        let apitest = try TestBinaries.url("apitest").path
        let command = "'\(apitest)' load '\(suite)' --rate 50/s --duration 2500ms"
        let onTerminal = try await runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        #expect(onTerminal.exitCode == 0, "\(onTerminal.stdout)")
        // About 50 a second (an iteration near a second's end may complete in the next one on a busy machine).
        for second in 1...2 {
            let line = try Regex(
                "\r\u{1B}\\[2Kload \(second)s/3s  rate (4[5-9]|5[0-5])/s  p99 [0-9.]+ (µs|ms)  errors 0")
            #expect(onTerminal.stdout.contains(line), "second \(second): \(onTerminal.stdout)")
        }
        // Not on a pipe, nor with --quiet.
        let piped = try await runAPITest(["load", suite, "--rate", "50/s", "--duration", "1500ms"])
        #expect(!piped.stderr.contains("load 1s/") && !piped.stdout.contains("load 1s/"), "\(piped.stderr)")
    }

    @Test func reportFilesAreCheckedAsRunChecksThem() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = try write(
            "reports.yaml", "baseURL: http://127.0.0.1:9\ntests:\n  - name: t\n    request: {url: /}\n")
        let report = directory.appendingPathComponent("load.json").path
        let twice = try await runAPITest([
            "load", suite, "--rate", "10/s", "--duration", "1s", "--report-json", report,
            "--report-html", directory.path + "/./load.json",
        ])
        #expect(twice.exitCode == 2, "\(twice.stdout)\(twice.stderr)")
        #expect(
            twice.stderr.contains(
                "two reports cannot be written to the same file: --report-json '\(report)' and --report-html "
                    + "'\(directory.path)/./load.json'"), "\(twice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report))
        let empty = try await runAPITest(["load", suite, "--rate", "10/s", "--duration", "1s", "--report-junit", ""])
        #expect(empty.exitCode == 2, "\(empty.stdout)\(empty.stderr)")
        #expect(empty.stderr.contains("--report-junit: a report file name cannot be empty"), "\(empty.stderr)")
    }

    @Test func badFlagsAreUsageErrors() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = try write(
            "usage.yaml", "baseURL: http://127.0.0.1:9\ntests:\n  - name: t\n    request: {url: /}\n")
        let weighted = try write(
            "weights.yaml",
            "baseURL: http://127.0.0.1:9\ntests:\n  - name: t\n    load: {weight: -1, wieght: 2}\n    request: {url: /}\n"
        )
        let invalid = try await runAPITest(["load", weighted, "--rate", "1/s", "--duration", "1s"])
        #expect(invalid.exitCode == 2)
        #expect(
            invalid.stderr.contains("error: 'weight' must be between 0 and 1000, found -1\n --> "), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("weights.yaml:4:20\n"), "\(invalid.stderr)")
        #expect(
            invalid.stderr.contains("error: unknown key 'wieght' in load; did you mean 'weight'?"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("weights.yaml:4:24\n"), "\(invalid.stderr)")
        let idle = try write(
            "idle.yaml",
            "baseURL: http://127.0.0.1:9\ntests:\n  - name: t\n    load: {weight: 0}\n    request: {url: /}\n"
                + "  - name: u\n    skip: later\n    request: {url: /}\n")
        let refused = try await runAPITest(["load", suite, "--rate", "10/s", "--duration", "1s"])
        #expect(refused.exitCode == 1, "without a threshold every iteration must pass: \(refused.stdout)")
        #expect(refused.stdout.contains("  ✘ errors<=0 (100.00 %)"), "\(refused.stdout)")
        #expect(refused.stdout.contains("error connectionRefused: 10"), "\(refused.stdout)")
        let nothing = try await runAPITest(["load", idle, "--rate", "10/s", "--duration", "1s"])
        #expect(nothing.exitCode == 4, "\(nothing.stdout)\(nothing.stderr)")
        #expect(nothing.stderr.contains("no selected test can be picked"), "\(nothing.stderr)")
        let cases: [([String], String)] = [
            (["--rate", "10/s"], "--rate needs --duration"),
            (["--vus", "5", "--rate", "10/s", "--duration", "1s"], "--vus (closed model) cannot be used with --rate"),
            (["--rate", "fast", "--duration", "1s"], "--rate 'fast': expected iterations per second"),
            // Started one iteration and reported "394.8/s over 0.00 s".
            (["--rate", "1e-300/s", "--duration", "10s"], "--rate '1e-300/s': expected iterations per second"),
            (["--stage", "10s:2000000/s"], "--stage '2000000/s': expected iterations per second"),
            (["--stage", "10s"], "--stage '10s': expected DURATION:RATE"),
            (
                ["--rate", "1/s", "--duration", "1s", "--threshold", "p95<20"],
                "threshold 'p95<20': a latency needs a unit"
            ),
            ([], "give --rate RATE --duration D, --stage D:RATE (repeat), or --vus N --duration D"),
            (["--rate", "0/s", "--duration", "10s"], "--rate 0/s for 10s starts no iteration"),
            (["--stage", "10s:0/s"], "--stage: the stages start no iteration"),
        ]
        for (arguments, message) in cases {
            let result = try await runAPITest(["load", suite] + arguments)
            #expect(result.exitCode == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // A bad --shard is a usage error found with the other flags, before any suite is read.
        let missing = directory.appendingPathComponent("not-there.yaml").path
        let shard = try await runAPITest(["load", missing, "--rate", "1/s", "--duration", "1s", "--shard", "4/3"])
        #expect(shard.exitCode == 2, "\(shard.stderr)")
        #expect(shard.stderr.contains("--shard 4/3: K is 1-based and must be between 1 and 3"), "\(shard.stderr)")
        #expect(!shard.stderr.contains("not found"), "\(shard.stderr)")
    }
}

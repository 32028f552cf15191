import Foundation
import Testing

/// `apitest load --baseline` end to end against the demo API's `/stall` route: a run of the same route compared with
/// an earlier one passes its relative thresholds (noise), a run during which the server stalls for a second fails
/// them with the regression shown side by side (console, HTML, JUnit; the JSON report still validates), and a
/// baseline that cannot be compared is a usage error that says why.
@Suite(.serialized) struct LoadBaselineCLITests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// A suite `stall` with the test `ping` of `/stall/ping`; `stalls` arms a 2.5-second stall in its setup, which
    /// runs just before the load starts.
    func suite(_ name: String, demo: DemoServer, stalls: Bool = false, test: String = "ping") throws -> String {
        let setup =
            stalls
            ? """
            setup:
              - request: {method: POST, url: "/stall/arm?ms=2500"}
                expect: {status: 200}
            load:
              thresholds: ["p95<+100ms"]

            """ : ""
        return try write(
            name,
            """
            name: stall
            baseURL: \(demo.baseURL)
            \(setup)tests:
              - name: \(test)
                request: {url: /stall/ping}
                expect: {status: 200}
            """)
    }

    static let load = ["--rate", "200/s", "--duration", "4s", "--quiet"]
    static let relative = ["--threshold", "p99<+100ms", "--threshold", "rate>-10%", "--threshold", "errors<+1%"]

    @Test func aRunOfTheSameRoutePassesAndAStallFailsWithTheRegressionShown() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let quiet = try suite("stall.yaml", demo: demo)
        let baseline = path("baseline.json")
        let first = try await runAPITest(["load", quiet] + Self.load + ["--report-json", baseline])
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")

        // The same route again: whatever the machine's noise, no relative threshold fails.
        let again = try await runAPITest(["load", quiet, "--baseline", baseline] + Self.load + Self.relative)
        #expect(again.exitCode == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("compared with baseline \(baseline) (started "), "\(again.stdout)")
        #expect(again.stdout.contains("  stall › ping: latency Mann-Whitney U p = "), "\(again.stdout)")
        #expect(again.stdout.contains("            baseline      this run      change\n    p50     "))
        #expect(again.stdout.contains("  ✔ p99<+100ms ("), "\(again.stdout)")
        #expect(again.stdout.contains("  ✔ rate>-10% ("), "\(again.stdout)")

        // The server stalls for 2.5 s from the setup on: the arrivals until then wait, most of the 4 s run (a
        // one-second stall missed the run once in a loaded CI-like run, when the load started late after the setup).
        let stalled = try suite("stalled.yaml", demo: demo, stalls: true)
        let html = path("stalled.html")
        let junit = path("stalled.xml")
        let json = path("stalled.json")
        let slow = try await runAPITest(
            ["load", stalled, "--baseline", baseline] + Self.load + Self.relative
                + ["--report-html", html, "--report-junit", junit, "--report-json", json])
        #expect(slow.exitCode == 1, "\(slow.stdout)\(slow.stderr)")
        let lines = slow.stdout.split(separator: "\n").map(String.init)
        let p99 = try #require(lines.first { $0.hasPrefix("  ✘ p99<+100ms: ") }, "\(slow.stdout)")
        #expect(p99.contains("quantile test p = ") && p99.hasSuffix("beyond the bound and significant: a regression"))
        // The suite's own relative threshold joins the command line's.
        #expect(lines.contains { $0.hasPrefix("  ✘ p95<+100ms: ") }, "\(slow.stdout)")
        // Every arrival was still served: no error share to speak of.
        #expect(lines.contains { $0.hasPrefix("  ✔ errors<+1%: 0.00 % → 0.00 % (+0.00 %)") }, "\(slow.stdout)")
        let p99Row = try #require(lines.first { $0.hasPrefix("    p99     ") }, "\(slow.stdout)")
        let cells = p99Row.split(separator: " ", omittingEmptySubsequences: true)
        // p99 (baseline), then this run's: the stall's wait, hundreds of milliseconds or more (a latency of a
        // second or more is shown in seconds: `1.01 s`).
        let scale: Double? = cells.count >= 6 ? ["ms": 1, "s": 1000][String(cells[4])] : nil
        let thisRun = cells.count >= 6 ? (Double(cells[3]) ?? 0) * (scale ?? 0) : 0
        #expect(scale != nil && thisRun >= 500, "\(p99Row)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<h2>Compared with the baseline</h2>") && page.contains("<li data-holds=\"false\""))
        #expect(page.contains("<th rowspan=\"7\">stall › ping<br><small>Mann-Whitney U p = "))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("message=\"threshold p99&lt;+100ms failed: measured +"), "\(xml)")
        try await Self.expectValidReport(json)
        // The JSON report has both runs side by side too, with the verdicts (the old report had only the changes).
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        let compared = try #require((document as? [String: Any])?["baseline"] as? [String: Any])
        #expect(compared["baselineFile"] as? String == baseline)
        let overall = try #require(compared["overall"] as? [String: Any])
        let before = try #require((overall["baseline"] as? [String: Any])?["p99"] as? Double)
        let after = try #require((overall["current"] as? [String: Any])?["p99"] as? Double)
        #expect(after >= 500_000 && after > before, "\(overall)")
        #expect((compared["tests"] as? [[String: Any]])?.map { $0["name"] as? String } == ["stall › ping"])
        let verdicts = try #require(compared["verdicts"] as? [[String: Any]])
        let p99Verdict = try #require(
            verdicts.first {
                ($0["threshold"] as? [String: Any])?["text"] as? String == "p99<+100ms"
            })
        #expect(p99Verdict["holds"] as? Bool == false && p99Verdict["significant"] as? Bool == true, "\(verdicts)")
    }

    @Test func aBaselineThatCannotBeComparedIsAUsageError() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let quiet = try suite("stall.yaml", demo: demo)
        let short = ["--rate", "20/s", "--duration", "500ms", "--quiet"]
        let missing = try await runAPITest(["load", quiet, "--baseline", path("none.json")] + short)
        #expect(missing.exitCode == 2)
        #expect(
            missing.stderr.contains("--baseline '\(path("none.json"))': cannot read it: the file '"),
            "\(missing.stderr)")

        let notALoad = try await runAPITest(["load", quiet, "--baseline", quiet] + short)
        #expect(notALoad.exitCode == 2)
        #expect(notALoad.stderr.contains("--baseline '\(quiet)': not a load JSON report"), "\(notALoad.stderr)")

        let baseline = path("baseline.json")
        let first = try await runAPITest(["load", quiet, "--report-json", baseline] + short)
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        let other = try suite("other.yaml", demo: demo, test: "pong")
        let differ = try await runAPITest(["load", other, "--baseline", baseline] + short)
        #expect(differ.exitCode == 2)
        #expect(
            differ.stderr.contains(
                "--baseline '\(baseline)': its tests do not match: this run's stall › pong not in the baseline; "
                    + "the baseline's stall › ping not in this run"), "\(differ.stderr)")

        let alone = try await runAPITest(["load", quiet, "--threshold", "p99<+10%"] + short)
        #expect(alone.exitCode == 2)
        #expect(alone.stderr.contains("threshold 'p99<+10%' is relative to a baseline run: give --baseline FILE"))

        let bad = try await runAPITest(["load", quiet, "--baseline", baseline, "--threshold", "p99<+10"] + short)
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("a relative latency is a signed percentage (+10%)"), "\(bad.stderr)")

        // The report never overwrites the baseline it reads.
        let over = try await runAPITest(["load", quiet, "--baseline", baseline, "--report-json", baseline] + short)
        #expect(over.exitCode == 2, "\(over.stderr)")
        #expect(!missing.stdout.contains("load:") && !differ.stdout.contains("load:"))
    }

    /// The load JSON report at `source` written to `name` with `edit` applied to its `load` object.
    func edited(_ source: String, to name: String, _ edit: (inout [String: Any]) -> Void) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var load = try #require(document["load"] as? [String: Any])
        edit(&load)
        document["load"] = load
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// An empty latency histogram: no samples.
    static func emptied(_ latency: Any?) -> [String: Any] {
        var histogram = latency as? [String: Any] ?? [:]
        histogram["counts"] = [[UInt64]]()
        histogram["count"] = 0
        return histogram
    }

    @Test func aBaselineWithoutLatencySamplesIsAUsageErrorSayingSo() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let quiet = try suite("stall.yaml", demo: demo)
        let short = ["--rate", "20/s", "--duration", "500ms", "--quiet"]
        let baseline = path("baseline.json")
        let first = try await runAPITest(["load", quiet, "--report-json", baseline] + short)
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")

        // Empty overall and per test (the audit's file): refused, not compared as "+∞ %".
        let none = try edited(baseline, to: "none.json") { load in
            load["latency"] = Self.emptied(load["latency"])
            load["tests"] = (load["tests"] as? [[String: Any]] ?? []).map { test in
                var test = test
                test["latency"] = Self.emptied(test["latency"])
                return test
            }
        }
        let empty = try await runAPITest(["load", quiet, "--baseline", none, "--threshold", "p99<+10%"] + short)
        #expect(empty.exitCode == 2, "\(empty.stdout)\(empty.stderr)")
        #expect(
            empty.stderr.contains("--baseline '\(none)': it has no latency samples (its latency histogram is empty)"),
            "\(empty.stderr)")
        #expect(!empty.stdout.contains("load:") && !empty.stdout.contains("∞"), "\(empty.stdout)")

        // Only the test's histogram empty: the test is named.
        let testless = try edited(baseline, to: "testless.json") { load in
            load["tests"] = (load["tests"] as? [[String: Any]] ?? []).map { test in
                var test = test
                test["latency"] = Self.emptied(test["latency"])
                return test
            }
        }
        let named = try await runAPITest(["load", quiet, "--baseline", testless] + short)
        #expect(named.exitCode == 2, "\(named.stdout)\(named.stderr)")
        #expect(
            named.stderr.contains("--baseline '\(testless)': its test stall › ping has no latency samples"),
            "\(named.stderr)")
    }

    /// Checks the load JSON report at `path` against `schemas/load-report.schema.json` (Python's jsonschema).
    static func expectValidReport(_ path: String) async throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas/load-report.schema.json")
        let script = """
            import json, sys, jsonschema
            jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])),
                                cls=jsonschema.Draft202012Validator)
            print("valid")
            """
        let checked = try await runProcess(try TestBinaries.tool("python3"), ["-c", script, schema.path, path])
        #expect(checked.stdout == "valid\n", "\(checked.stderr)")
    }
}

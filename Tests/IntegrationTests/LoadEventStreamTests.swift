import Foundation
import Testing

/// Issue 40: `apitest load` over an event-stream step reports the time to the first event (p50, p90, p99 ...) beside
/// the step's latency, in the console, JSON and HTML load reports; against the demo API's `/events/sse`.
@Suite(.serialized) struct LoadEventStreamTests {
    @Test func timeToFirstEventPercentilesAreReported() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-ttfe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = directory.appendingPathComponent("stream.yaml")
        // The first event comes 30 ms after the answer's header; the stream's latency is longer (3 events 20 ms apart).
        try """
        baseURL: \(demo.baseURL)
        tests:
          - name: ticks
            steps:
              - request: {url: "/events/sse?count=3&first_delay=30&interval=20"}
                expect:
                  events: {count: 3}
              - request: {url: "/echo/plain"}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let json = directory.appendingPathComponent("load.json").path
        let html = directory.appendingPathComponent("load.html").path
        let result = try await runAPITest([
            "load", suite.path, "--rate", "10/s", "--duration", "1s", "--report-json", json, "--report-html", html,
        ])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("time to first event, step 1 ("), "\(result.stdout)")
        #expect(!result.stdout.contains("time to first event, step 2"), "\(result.stdout)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("time to first event") })
        for label in ["p50", "p90", "p99", "max"] { #expect(line.contains(label), "\(line)") }

        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let load = try #require(document["load"] as? [String: Any])
        let tests = try #require(load["tests"] as? [[String: Any]])
        let steps = try #require(tests.first?["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        let stream = try #require(steps.first { ($0["index"] as? Int) == 1 })
        let first = try #require(stream["firstEvent"] as? [String: Any], "\(stream)")
        let completed = try #require((load["counts"] as? [String: Any])?["completed"] as? Int)
        #expect((first["count"] as? Int) == completed, "\(first)")
        let percentiles = try #require(first["percentiles"] as? [String: Any])
        let p50 = try #require((percentiles["p50"] as? NSNumber)?.doubleValue)
        let p99 = try #require((percentiles["p99"] as? NSNumber)?.doubleValue)
        #expect(percentiles["p90"] != nil)
        // At least the server's first_delay, and before the stream's end (the step's own latency).
        #expect(p50 >= 30, "\(percentiles)")
        let latency = try #require((stream["latency"] as? [String: Any])?["percentiles"] as? [String: Any])
        #expect(p99 <= ((latency["max"] as? NSNumber)?.doubleValue ?? 0), "\(percentiles) \(latency)")
        #expect(steps.first { ($0["index"] as? Int) == 2 }?["firstEvent"] == nil)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("time to first event, step 1"), "\(page.prefix(3000))")
    }
}

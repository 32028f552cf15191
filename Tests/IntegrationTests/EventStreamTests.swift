import Foundation
import Testing

/// Issue 40 item 1: `expect.events` reads a Server-Sent Events or NDJSON response as it arrives, checks each event
/// (count, first, last, nth, each, any), ends at `until`, holds `within` limits, captures from events, and keeps
/// memory bounded, against the demo API's `/events/sse` and `/events/ndjson`.
@Suite(.serialized) struct EventStreamTests {
    /// Runs `yaml` (with `baseURL` of `demo`) and returns the run.
    private func run(_ yaml: String, _ demo: DemoServer, _ extra: [String] = []) async throws -> ProcessResult {
        let file = try writeTemporarySuite("baseURL: \(demo.baseURL)\n" + yaml)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return try await runAPITest(["run", file.path, "--jobs", "1"] + extra)
    }

    @Test func sseEventsAreCheckedEndedByUntilAndCaptured() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        // `stall=1`: the server never ends the stream; only `until` does, and the step passes.
        let result = try await run(
            """
            tests:
              - name: ticks
                steps:
                  - request: {url: "/events/sse?count=20&done=1&stall=1", timeout: 30s}
                    expect:
                      status: 200
                      events:
                        count: 20
                        first: {event: tick, id: "0", retry: 3000, json: {$.n: 0}}
                        last: {id: "19", json: {$.text: "event 19"}}
                        nth: {3: {json: {$.n: 3}}, -2: {json: {$.n: 18}}}
                        each: {event: tick, json: {$.n: {type: integer}}}
                        any: {data: {contains: "event 7"}}
                        until: {data: "[DONE]"}
                    capture:
                      last_id: {event: last, field: id}
                      last_n: {event: last, path: $.n}
                      fifth: {event: 4, path: $.text}
                      terminal: {event: until, field: event}
                      whole: {event: until}
                  - request: {url: "/echo/x?id={{ last_id }}&n={{ last_n }}&t={{ terminal }}&f={{ fifth }}&w={{ whole }}"}
                    expect:
                      json:
                        $.args.id[0]: "19"
                        $.args.n[0]: "19"
                        $.args.t[0]: done
                        $.args.f[0]: "event 4"
                        $.args.w[0]: "[DONE]"
            """, demo)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✔ suite › ticks"), "\(result.stdout)")
    }

    @Test func ndjsonLinesAreEvents() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: lines
                steps:
                  - request: {url: "/events/ndjson?count=50"}
                    expect:
                      events:
                        count: {greaterThanOrEqual: 50}
                        each: {json: {$.n: {type: integer}}}
                        last: {json: {$.n: 49}}
                    capture:
                      first_text: {event: first, path: $.text}
                  - request: {url: "/echo/x?t={{ first_text }}"}
                    expect:
                      json:
                        $.args.t[0]: "event 0"
            """, demo)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func failingEventChecksAreLocatedAndNamed() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: wrong
                request: {url: "/events/sse?count=4"}
                expect:
                  events:
                    count: {greaterThan: 10}
                    each: {json: {$.n: {lessThan: 2}}}
                    nth: {9: {event: tick}}
                    any: {event: done}
            """, demo)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("events[2] (each): $.n: expected < 2, got 2"), "\(out)")
        #expect(out.contains("2 of 4 events failed the `each` checks"), "\(out)")
        #expect(out.contains("events (nth 9): there is no such event; the stream had 4"), "\(out)")
        #expect(out.contains("events (any): none of the 4 events passed the `any` checks"), "\(out)")
        #expect(out.contains("events count: expected > 10, got 4"), "\(out)")
        #expect(out.contains("suite.yaml:8:"), "the failures point at their keys: \(out)")
    }

    @Test func aStreamThatEndsWithoutItsUntilEventFails() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: no done
                request: {url: "/events/sse?count=3"}
                expect:
                  events: {until: {event: done}}
            """, demo)
        #expect(result.exitCode == 1)
        #expect(
            result.stdout.contains(
                "the stream ended after 3 events without an event matching `until` (the server closed it)"),
            "\(result.stdout)")
    }

    @Test func timeLimitsStopASilentStream() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        // Both servers stay silent for an hour; the step's timeout (60 s) is not what ends them.
        let result = try await run(
            """
            tests:
              - name: late first
                request: {url: "/events/sse?count=1&first_delay=60000", timeout: 60s}
                expect:
                  events: {within: {first: 300ms}}
              - name: gap
                request: {url: "/events/sse?count=2&stall=1", timeout: 60s}
                expect:
                  events: {within: {gap: 300ms}, count: 2}
            """, demo)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no first event within 300 ms"), "\(result.stdout)")
        #expect(result.stdout.contains("no event within 300 ms after events[1]"), "\(result.stdout)")
        #expect(!result.stdout.contains("timed out"), "\(result.stdout)")
    }

    @Test func aStreamWithoutEndIsBoundedByTheStepTimeout() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: endless
                request: {url: "/events/sse?count=2&stall=1", timeout: 1s}
                expect:
                  events: {count: 2}
            """, demo)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "the step's timeout ended the event stream: the stream did not end (no `until` condition ends it); "
                    + "2 events received"), "\(result.stdout)")
    }

    @Test func aResponseThatIsNoEventStreamSaysSo() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: json
                request: {url: "/json"}
                expect:
                  events: {count: 0}
            """, demo)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("the response is application/json, not an event stream"), "\(result.stdout)")
    }

    @Test func aResponseThatIsNoEventStreamHasThatFailureAlone() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let result = try await run(
            """
            tests:
              - name: json
                request: {url: "/json"}
                expect:
                  events: {count: 1, first: {event: tick}, last: {event: tick}, any: {event: tick}}
            """, demo)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("not an event stream"), "\(result.stdout)")
        #expect(!result.stdout.contains("events count"), "\(result.stdout)")
        #expect(!result.stdout.contains("the stream had no events"), "\(result.stdout)")
        #expect(!result.stdout.contains("none of the 0 events"), "\(result.stdout)")
    }

    @Test func badEventKeysAreLocatedLoadErrors() async throws {
        let file = try writeTemporarySuite(
            """
            tests:
              - name: bad
                request: {url: "http://127.0.0.1:9/events"}
                expect:
                  events:
                    frist: {event: tick}
                    nth: {x: {event: a}}
                    within: {first: -1s}
                    each: {evnt: tick}
                capture:
                  a: {event: middle}
                  b: {event: last, field: id, path: $.x}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["validate", file.path])
        #expect(result.exitCode != 0)
        let text = result.stdout + result.stderr
        #expect(text.contains("error: unknown key 'frist' in events; did you mean 'first'?"), "\(text)")
        #expect(text.contains("suite.yaml:6:9"), "located at the key: \(text)")
        #expect(text.contains("'x' is not an event position"), "\(text)")
        #expect(text.contains("unknown key 'evnt' in an event check"), "\(text)")
        #expect(text.contains("invalid event 'middle' in capture 'a'"), "\(text)")
        #expect(text.contains("capture 'b' takes either 'field' or 'path', not both"), "\(text)")
    }

    /// 100,000 events checked one by one with the apitest process's peak RSS bounded (the figure is in the
    /// failure message when it is not).
    @Test func aHundredThousandEventsInBoundedMemory() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: many
                request: {url: "/events/sse?count=100000&done=1", timeout: 120s}
                expect:
                  events:
                    count: 100000
                    each: {event: tick, json: {$.n: {greaterThanOrEqual: 0}}}
                    last: {json: {$.n: 99999}}
                    until: {event: done}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try await runAPITestMeasured(["run", file.path])
        #expect(run.result.exitCode == 0, "\(run.result.stdout)\(run.result.stderr)")
        #expect(run.maxResidentBytes < 80 << 20, "peak RSS \(run.maxResidentBytes) bytes for 100,000 events")
        print("EventStreamTests: peak RSS \(run.maxResidentBytes / 1024) KiB for 100,000 SSE events")
    }

    /// sse-starlette on uvicorn: CRLF line ends, `: ping` comments, a `retry` field, multi-line data and a stream
    /// the server never closes, ended by `until`.
    @Test func sseStarletteOnUvicorn() async throws {
        let server = try SSEStarletteServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: ticks
                request: {url: "/ticks?count=30", timeout: 30s}
                expect:
                  events:
                    count: 30
                    first: {event: tick, id: "0", retry: 2500, json: {$.text: "tick 0"}}
                    each: {event: tick, json: {$.n: {lessThan: 30}}}
                    nth: {-1: {id: "29"}}
                    until: {event: done}
                    within: 10s
                capture:
                  done_data: {event: until}
              - name: lines
                request: {url: "/lines"}
                expect:
                  events:
                    count: 2
                    first: {event: poem, data: "first line\\nsecond line\\nthird line"}
                    last: {event: message, data: plain, id: {exists: false}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✔ suite › ticks"), "\(result.stdout)")
        #expect(result.stdout.contains("✔ suite › lines"), "\(result.stdout)")
    }
}

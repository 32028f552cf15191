import Foundation
import Testing

/// Issue 40: a `text/event-stream` response of a step without `expect.events` (whose checks do not read the body) is
/// read as a stream of events and not kept, so an endless one neither hangs the run nor grows its memory: the step's
/// timeout ends it with a failure saying so; against the demo API's `/events/sse`.
@Suite(.serialized) struct EventStreamImplicitTests {
    @Test func anEndlessStreamWithoutEventChecksEndsAtTheTimeoutInBoundedMemory() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        // As many events as the server can send in 3 s (`stall=1`: it never ends the stream).
        let file = try writeTemporarySuite(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: endless
                request: {url: "/events/sse?count=10000000&stall=1", timeout: 3s}
                expect:
                  status: 200
                  headers: {Content-Type: {contains: text/event-stream}}
              - name: finite
                request: {url: "/events/sse?count=50"}
                expect:
                  status: 200
                  bodySize: {greaterThan: 1000}
              - name: a body check still reads the body
                request: {url: "/events/sse?count=3"}
                expect:
                  body: {contains: "event 2"}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try await runAPITestMeasured(["run", file.path, "--jobs", "1"])
        let out = run.result.stdout
        #expect(run.result.exitCode == 1, "\(out)\(run.result.stderr)")
        #expect(out.contains("✘ suite › endless"), "\(out)")
        #expect(
            out.contains("the step's timeout ended the event stream: the text/event-stream response did not end"),
            "\(out)")
        #expect(out.contains("events received"), "\(out)")
        #expect(out.contains("✔ suite › finite"), "\(out)")
        #expect(out.contains("✔ suite › a body check still reads the body"), "\(out)")
        #expect(run.maxResidentBytes < 80 << 20, "peak RSS \(run.maxResidentBytes) bytes")
        print("EventStreamImplicitTests: peak RSS \(run.maxResidentBytes / 1024) KiB for an endless stream")
    }
}

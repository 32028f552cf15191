import Hummingbird

// MARK: - EventStreamEndpoints

/// Event streams for `expect.events`: `/events/sse` (Server-Sent Events) and `/events/ndjson` (a JSON object a
/// line), written as they are made, in constant memory.
///
/// Both take `count` (events, default 5), `interval` (ms between events, default 0), `first_delay` (ms before the
/// first event), `done` (1: end with `event: done` / `data: [DONE]` for SSE, `{"done":true}` for NDJSON) and
/// `stall` (1: after the events, send nothing more and never end: only the client's `until` or a time limit ends
/// it). Event `n` (from 0) is `id: n`, `event: tick`, `data: {"n":n,"text":"event n"}`; every tenth SSE event is
/// preceded by a comment line, and the first carries `retry: 3000`.
enum EventStreamEndpoints {
    /// Most events one response writes.
    static let maximumEvents = 10_000_000

    static func routes() -> [Route] {
        [
            Route(["GET"], "/events/sse") { request in try stream(request, sse: true) },
            Route(["GET"], "/events/ndjson") { request in try stream(request, sse: false) },
        ]
    }

    private static func stream(_ request: DemoRequest, sse: Bool) throws(DemoError) -> Response {
        let count = try request.intQuery("count", default: 5, in: 0...maximumEvents)
        let interval = try request.intQuery("interval", default: 0, in: 0...60000)
        let firstDelay = try request.intQuery("first_delay", default: 0, in: 0...60000)
        let done = try request.intQuery("done", default: 0, in: 0...1) == 1
        let stall = try request.intQuery("stall", default: 0, in: 0...1) == 1
        let body = ResponseBody { writer in
            if firstDelay > 0 { try await Task.sleep(for: .milliseconds(firstDelay)) }
            var pending = ""
            for index in 0..<count {
                if index > 0, interval > 0 { try await Task.sleep(for: .milliseconds(interval)) }
                pending += sse ? sseEvent(index) : #"{"n":\#(index),"text":"event \#(index)"}"# + "\n"
                // Batches of events when they come without pause; each event on its own when paced.
                if interval > 0 || pending.utf8.count >= 16 << 10 {
                    try await writer.write(ByteBuffer(string: pending))
                    pending = ""
                }
            }
            if done { pending += sse ? "event: done\ndata: [DONE]\n\n" : "{\"done\":true}\n" }
            if !pending.isEmpty { try await writer.write(ByteBuffer(string: pending)) }
            if stall {
                // Silent until the client goes away.
                try await Task.sleep(for: .seconds(3600))
            }
            try await writer.finish(nil)
        }
        let type = sse ? "text/event-stream" : "application/x-ndjson"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: body)
    }

    /// The SSE text of event `index`.
    private static func sseEvent(_ index: Int) -> String {
        var text = index % 10 == 0 ? ": keep-alive \(index)\n" : ""
        if index == 0 { text += "retry: 3000\n" }
        text += "id: \(index)\nevent: tick\ndata: {\"n\":\(index),\"text\":\"event \(index)\"}\n\n"
        return text
    }
}

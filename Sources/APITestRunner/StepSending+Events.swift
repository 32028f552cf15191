import APITestChecks
import APITestHTTP
import APITestSuite
import APITestSupport
import Foundation

extension StepSending {
    /// Sends `sent`'s request; a step with `expect.events` reads the body as a stream of events checked as they
    /// arrive (``EventStreamChecker``, left in `sent.eventStream` for the checking stage), stopped by `until`, by its
    /// time limits (`within`, watched here: a silent server sends nothing that would wake the transfer) or by the
    /// step's timeout, each of which still gives the response as far as it arrived.
    ///
    /// A step without `expect.events` whose checks do not read the body is sent the same way with an implicit
    /// checker: a `text/event-stream` answer is read as events and not kept (an endless one is ended by the step's
    /// timeout, a failure saying so, in constant memory); any other answer is counted and its first bytes kept, as
    /// before.
    func send(_ sent: inout StepPreparation.Prepared) async throws -> HTTPResponse {
        guard let events = step.expect.events else {
            guard case .digest(let digests, let prefix) = sent.request.responseBodyHandling, digests.isEmpty else {
                return try await executor.transport.perform(sent.request)
            }
            let stream = EventStreamChecker(
                implicitFor: step.location, checker: executor.checker, context: sent.context, masker: sent.masker)
            stream.previewLimit = prefix
            sent.eventStream = stream
            sent.request.responseBodyHandling = .stream(stream.sink, prefix: prefix)
            do {
                return try await executor.transport.perform(sent.request)
            } catch let error as HTTPError where error.reason == .timedOut && stream.readsEvents {
                stream.timedOut()
                return stream.partialResponse(to: sent.request)
            }
        }
        let stream = EventStreamChecker(
            events, captures: step.captures.filter(EventStreamChecker.isEventCapture), checker: executor.checker,
            context: sent.context, masker: sent.masker)
        sent.eventStream = stream
        let prefix = ExchangeRecorder.previewBytes(limit: executor.options.bodyPreviewLimit, masker: sent.masker)
        stream.previewLimit = prefix
        sent.request.responseBodyHandling = .stream(stream.sink, prefix: prefix)
        let request = sent.request
        let transport = executor.transport
        do {
            guard events.firstWithin != nil || events.gapWithin != nil else {
                return try await transport.perform(request)
            }
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask { try await transport.perform(request) }
                group.addTask {
                    // Wakes at the stream's deadline (at least every 100 ms, as events move it on).
                    while let deadline = stream.deadline() {
                        let now = ContinuousClock.now
                        if let deadline, now >= deadline, stream.expire(at: now) { return nil }
                        let wake = now + .milliseconds(100)
                        try await Task.sleep(until: deadline.map { min($0, wake) } ?? wake, clock: .continuous)
                    }
                    // Stopped by `until` or a check: the transfer ends by itself.
                    try await Task.sleep(for: .seconds(86_400 * 365))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                if let response = first { return response }
                // A time limit passed: the transfer is cancelled, the response is what arrived.
                group.cancelAll()
                _ = try? await group.next()
                try Task.checkCancellation()
                return stream.partialResponse(to: request)
            }
        } catch let error as HTTPError where error.reason == .timedOut && stream.readsEvents {
            stream.timedOut()
            return stream.partialResponse(to: request)
        }
    }
}

package import APITestHTTP
import APITestJSON
package import APITestResults
package import APITestSecrets
package import APITestSuite
package import APITestSupport
package import Foundation

/// Reads a response as a stream of events while it arrives and checks each against `expect.events` as it comes
/// (docs/streaming.md): Server-Sent Events or JSON records a line, cut by ``ServerSentEventParser`` and
/// ``JSONLinesSplitter``, each event's checks run through the ``ResponseChecker`` on the event as a body of its own.
///
/// Memory is bounded: an event is forgotten once checked; only the events the checks and captures still need
/// (the first, the last, those `nth` names from the end, the one `until` matched, those captured) and a short
/// text of the first `shown` ones are kept. The ``sink`` runs on the session's loop thread; ``deadline``,
/// ``expire(at:)`` and ``finish(context:)`` on the runner's; a lock keeps them apart.
package final class EventStreamChecker: @unchecked Sendable {
    /// An event as kept for a later check or capture.
    struct Kept {
        var index: Int
        var event: ServerSentEvent
    }

    /// What a finished stream gives the step.
    package struct Outcome {
        /// The checks that failed, in the order found.
        package var failures: [AssertionFailure]
        /// The context with the event captures.
        package var context: TemplateContext
        /// The names captured.
        package var captured: [String]
        /// A summary of the stream for reports: the number of events, the first ones (cut), how it ended.
        package var summary: String
    }

    private let expectation: EventsExpectation
    private let captures: [CaptureSpec]
    private let checker: ResponseChecker
    private let context: TemplateContext
    private let masker: SecretMasker
    private let started: ContinuousClock.Instant
    private let lock = NSLock()

    // MARK: - State (under `lock`)

    private var format: EventsExpectation.Format?
    private var parser = ServerSentEventParser()
    private var splitter = JSONLinesSplitter()
    private(set) var count = 0
    private var failures: [AssertionFailure] = []
    /// Failures past this many are counted, not kept.
    static let failureLimit = 20
    private var droppedFailures = 0
    private var eachFailedEvents = 0
    private var anyHeld = false
    private var first: Kept?
    private var last: Kept?
    private var terminal: Kept?
    /// The last events, as many as the most negative `nth` index asks for.
    private var tail: [Kept] = []
    private let tailLength: Int
    /// Events captured by position.
    private var byIndex: [Int: Kept] = [:]
    private let keptIndices: Set<Int>
    private var shownLines: [String] = []
    private var lastEventAt: ContinuousClock.Instant?
    private var longestGap: Duration = .zero
    private var firstEventAfter: Duration?
    private var stopped = false
    /// Whether the stream's source broke off, so the checks of the whole stream are not made.
    private var wholeStreamSkipped = false
    private var streamProblem: String?
    private var statusCode = 0
    private var headers = HTTPHeaders()
    private var began = false
    /// For an implicit stream (``init(implicitFor:checker:context:masker:)``): the response is no event stream, so
    /// its bytes are left to the transfer (counted, their prefix kept) and nothing is checked.
    private var ignoring = false
    /// Whether the checker reads a step without `expect.events`, only when its response turns out to be one.
    private let implicit: Bool
    /// Whether the current response is a redirect, whose body is skipped.
    private var skipping = false
    /// The first bytes of the stream, for a response the transfer did not return (`partialResponse`).
    private var rawPrefix = Data()
    /// How many bytes `rawPrefix` keeps: the reports' preview of the body.
    package var previewLimit = 0

    /// A checker of `expectation` (with the event `captures` of the step), rendering arguments from `context`;
    /// `started` is when the request starts (for `within.first`).
    package init(
        _ expectation: EventsExpectation, captures: [CaptureSpec], checker: ResponseChecker, context: TemplateContext,
        masker: SecretMasker, started: ContinuousClock.Instant = .now
    ) {
        self.expectation = expectation
        self.captures = captures
        self.checker = checker
        self.context = context
        self.masker = masker
        self.started = started
        implicit = false
        tailLength = max(1, -(expectation.nth.map(\.index).min() ?? 0))
        var indices = Set(expectation.nth.map(\.index).filter { $0 >= 0 })
        for capture in captures {
            if case .stream(.captured(.index(let index), _, _)) = capture.query { indices.insert(index) }
        }
        keptIndices = indices
    }

    /// A checker for a step without `expect.events` whose response may be a `text/event-stream`: such a response
    /// is read as events while it arrives (and kept no further than its first bytes, so an endless stream runs in
    /// constant memory until the step's timeout ends it), with no check but its end; any other response is left as
    /// it is.
    package init(
        implicitFor location: SourceLocation, checker: ResponseChecker, context: TemplateContext, masker: SecretMasker
    ) {
        var expectation = EventsExpectation(location: location)
        expectation.format = .sse
        self.expectation = expectation
        self.captures = []
        self.checker = checker
        self.context = context
        self.masker = masker
        self.started = .now
        implicit = true
        tailLength = 1
        keptIndices = []
    }

    /// Whether the step's timeout ending the transfer ends the stream (a failure of the step with what arrived),
    /// rather than erring as any transfer does: once a response started that is read as events.
    package var readsEvents: Bool { lock.withLock { began && !ignoring } }

    /// The event captures of `captures` (``Query/stream(_:)``), which the checker takes rather than the body.
    package static func isEventCapture(_ capture: CaptureSpec) -> Bool {
        if case .stream = capture.query { true } else { false }
    }

    /// The sink that feeds the checker from the transfer.
    package var sink: ResponseStreamSink {
        ResponseStreamSink(
            begin: { [self] status, headers in begin(status: status, headers: headers) },
            receive: { [self] bytes in receive(bytes) })
    }

    // MARK: - Receiving

    private func begin(status: Int, headers: HTTPHeaders) {
        lock.withLock {
            // A redirect's body is not the stream: the next response's is.
            skipping = (300...399).contains(status)
            if skipping { return }
            statusCode = status
            self.headers = headers
            began = true
            let media = headers["Content-Type"].map(MediaTypePattern.essence(of:))
            if implicit {
                ignoring = media != "text/event-stream"
                format = .sse
                return
            }
            if let written = expectation.format {
                format = written
            } else if let media {
                format = EventsExpectation.Format.of(mediaType: media)
                if format == nil {
                    streamProblem =
                        "the response is \(media.shownInMessage), not an event stream (text/event-stream, "
                        + "application/x-ndjson, application/jsonl, application/json-seq); set events.format to read "
                        + "it as one"
                }
            } else {
                format = .sse
            }
            switch format {
            case .jsonSeq?: splitter = JSONLinesSplitter(framing: .sequence)
            default: splitter = JSONLinesSplitter(framing: .lines)
            }
        }
    }

    /// Reads bytes of the body; false stops the transfer (the stream ended by `until`, a limit, or a problem).
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lock.withLock {
            if skipping || ignoring { return true }
            guard !stopped, streamProblem == nil, let format else { return false }
            if rawPrefix.count < previewLimit {
                rawPrefix.append(
                    contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(previewLimit - rawPrefix.count)))
            }
            do {
                switch format {
                case .sse:
                    return try parser.feed(bytes) { event in dispatch(event) }
                case .ndjson, .jsonSeq:
                    return try splitter.feed(bytes) { line in dispatch(ServerSentEvent(data: line)) }
                }
            } catch let problem as ServerSentEventParser.Problem {
                switch problem {
                case .lineTooLong(let limit): streamProblem = "a line of the event stream is longer than \(limit) bytes"
                case .eventTooLarge(let limit): streamProblem = "an event's data is larger than \(limit) bytes"
                }
            } catch {
                streamProblem = "a record of the stream is larger than \(splitter.maximumRecordSize) bytes"
            }
            return false
        }
    }

    /// Starts a stream whose events are not read from a body (a GraphQL subscription's `next` messages): the
    /// answer's status and header fields, for reports.
    package func beginEvents(status: Int, headers: HTTPHeaders) {
        lock.withLock {
            statusCode = status
            self.headers = headers
            began = true
            format = .ndjson
        }
    }

    /// One event from a source other than a body (a GraphQL subscription's `next` payload); false when the stream
    /// is to stop (`until` matched, a time limit passed, or it had stopped already).
    package func receive(event: ServerSentEvent) -> Bool {
        lock.withLock {
            guard !stopped, streamProblem == nil else { return false }
            return dispatch(event)
        }
    }

    /// Ends the stream early because its source broke off (a subscription's error, a close): with `message`, a
    /// failure of its own; without, the step's other failures say why. Either way the checks that wait for the whole
    /// stream do not add follow-on failures.
    package func end(failing message: String?) {
        lock.withLock {
            stopped = true
            wholeStreamSkipped = true
            if streamProblem == nil { streamProblem = message }
        }
    }

    /// One event arrived (under the lock); false stops the stream.
    private func dispatch(_ event: ServerSentEvent) -> Bool {
        let now = ContinuousClock.now
        if let previous = lastEventAt {
            let gap = now - previous
            longestGap = max(longestGap, gap)
            if let limit = expectation.gapWithin, gap > limit {
                fail(
                    "events[\(count)]: arrived \(Self.shown(gap)) after the one before, longer than within "
                        + Self.shown(limit))
                stopped = true
                return false
            }
        } else {
            let wait = now - started
            firstEventAfter = wait
            if let limit = expectation.firstWithin, wait > limit {
                fail(
                    "events[0]: the first event arrived after \(Self.shown(wait)), longer than within "
                        + Self.shown(limit))
                stopped = true
                return false
            }
        }
        lastEventAt = now
        if let until = expectation.until, passes(until, event, index: count) {
            terminal = Kept(index: count, event: event)
            record(event, terminal: true)
            stopped = true
            return false
        }
        let index = count
        count += 1
        record(event, terminal: false)
        let kept = Kept(index: index, event: event)
        if index == 0 {
            first = kept
            if let check = expectation.first { apply(check, kept, name: "first") }
        }
        last = kept
        if expectation.nth.contains(where: { $0.index < 0 }) {
            if tail.count == tailLength { tail.removeFirst() }
            tail.append(kept)
        }
        if keptIndices.contains(index) { byIndex[index] = kept }
        for item in expectation.nth where item.index == index { apply(item.check, kept, name: "nth \(index)") }
        if let each = expectation.each {
            if eachFailedEvents == 0 {
                if !apply(each, kept, name: "each") { eachFailedEvents = 1 }
            } else if !passes(each, event, index: index) {
                eachFailedEvents += 1
            }
        }
        if let any = expectation.any, !anyHeld, passes(any, event, index: index) { anyHeld = true }
        return true
    }

    /// Keeps a line of the first events for the reports.
    private func record(_ event: ServerSentEvent, terminal: Bool) {
        guard shownLines.count < expectation.shown else { return }
        var line = "[\(terminal ? "until" : String(count - 1))]"
        if event.event != "message" { line += " event=\(event.event)" }
        if let id = event.id { line += " id=\(id)" }
        if let retry = event.retry { line += " retry=\(retry)" }
        line += " data=\(event.data)"
        shownLines.append(line.truncated(to: 200).onOneLine)
    }

    // MARK: - Checks of one event

    /// The failures of `check` on `event`.
    private func failures(of check: EventCheck, _ event: ServerSentEvent, index: Int) -> [AssertionFailure] {
        var body = Self.body(of: event, count: index + 1)
        return checker.check(
            Expectations(assertions: check.assertions), stepLocation: check.location, body: &body, context: context,
            masker: masker, requireSuccessStatus: false, listsChecks: false
        ).failures
    }

    private func passes(_ check: EventCheck, _ event: ServerSentEvent, index: Int) -> Bool {
        failures(of: check, event, index: index).isEmpty
    }

    /// Checks `kept` against `check`, recording its failures named `events[N] (name)`; true when it passed.
    @discardableResult
    private func apply(_ check: EventCheck, _ kept: Kept, name: String) -> Bool {
        let found = failures(of: check, kept.event, index: kept.index)
        for var failure in found {
            failure.subject = "events[\(kept.index)] \(failure.subject)"
            failure.text = "events[\(kept.index)] (\(name)): \(failure.text)"
            add(failure)
        }
        return found.isEmpty
    }

    private func fail(_ message: String, subject: String = "events") {
        add(AssertionFailure(location: expectation.location, subject: subject, message: message))
    }

    private func add(_ failure: AssertionFailure) {
        if failures.count < Self.failureLimit { failures.append(failure) } else { droppedFailures += 1 }
    }

    /// An event as a response of its own: its data the body (JSON to the chain), its fields read by
    /// ``Query/stream(_:)``.
    static func body(of event: ServerSentEvent, count: Int) -> ResponseBody {
        let response = HTTPResponse(
            statusCode: 200, httpVersion: "", headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Data(event.data.utf8), effectiveURL: "")
        var body = ResponseBody(response)
        body.streamEvent = (event, count)
        return body
    }

    // MARK: - Time limits

    /// When the stream fails for silence (no first event, or no event after the last one, within the limits):
    /// `.some(nil)` while no limit applies (no first event yet and only a `gap` limit), `nil` once it stopped.
    package func deadline() -> ContinuousClock.Instant?? {
        lock.withLock {
            guard !stopped else { return nil }
            if let lastEventAt { return .some(expectation.gapWithin.map { lastEventAt + $0 }) }
            return .some(expectation.firstWithin.map { started + $0 })
        }
    }

    /// The deadline passed at `now` without an event: records the failure and stops reading; true when it did
    /// (false when an event came in the meantime).
    package func expire(at now: ContinuousClock.Instant = .now) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            if let lastEventAt, let limit = expectation.gapWithin, now - lastEventAt > limit {
                fail(
                    "no event within \(Self.shown(limit)) after events[\(count - 1)] (waited \(Self.shown(now - lastEventAt)); "
                        + "\(count) event\(count == 1 ? "" : "s") received)")
            } else if lastEventAt == nil, let limit = expectation.firstWithin, now - started > limit {
                fail("no first event within \(Self.shown(limit)) (waited \(Self.shown(now - started)))")
            } else {
                return false
            }
            stopped = true
            return true
        }
    }

    /// The transfer ended with the step's timeout while events were still awaited.
    package func timedOut() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            let ending =
                implicit
                ? "the text/event-stream response did not end (add expect.events with an `until` condition to end it)"
                : expectation.until == nil
                    ? "the stream did not end (no `until` condition ends it)"
                    : "no event matched `until`"
            fail(
                "the step's timeout ended the event stream: \(ending); \(count) event\(count == 1 ? "" : "s") "
                    + "received")
        }
    }

    /// The time from the start of the request to the first event, nil while none arrived (load reports' time to
    /// first event).
    package var timeToFirstEvent: Duration? { lock.withLock { firstEventAfter } }

    /// Whether a response started (its status and headers are known); always for an implicit stream, whose step is
    /// checked as any (a response without a body never starts its sink).
    package var hasBegun: Bool { lock.withLock { implicit || began } }

    /// The response as far as it arrived, for a transfer stopped before libcurl returned one (a time limit).
    package func partialResponse(to request: HTTPRequest) -> HTTPResponse {
        lock.withLock {
            var response = HTTPResponse(
                statusCode: statusCode, httpVersion: "HTTP", headers: headers, body: rawPrefix,
                effectiveURL: request.url)
            response.bodyIsComplete = false
            return response
        }
    }

    // MARK: - The end

    /// The checks that wait for the whole stream (until, count, each, first, last, nth, any); under the lock.
    private func checkWholeStream(context: TemplateContext) {
        let stoppedEarly = stopped
        if let until = expectation.until, terminal == nil, !failures.contains(where: { $0.subject == "events" }) {
            _ = until
            fail(
                "the stream ended after \(count) event\(count == 1 ? "" : "s") without an event matching `until`"
                    + (stoppedEarly ? "" : " (the server closed it)"))
        }
        if !expectation.count.isEmpty {
            var body = Self.body(of: ServerSentEvent(data: ""), count: count)
            let found = checker.check(
                Expectations(assertions: expectation.count), stepLocation: expectation.location, body: &body,
                context: context, masker: masker, requireSuccessStatus: false, listsChecks: false
            ).failures
            found.forEach(add)
        }
        if eachFailedEvents > 1 {
            fail("\(eachFailedEvents) of \(count) events failed the `each` checks (the first is shown)")
        }
        if expectation.first != nil, first == nil { fail("events (first): the stream had no events") }
        if let check = expectation.last {
            if let last {
                apply(check, last, name: "last")
            } else {
                fail("events (last): the stream had no events")
            }
        }
        for item in expectation.nth {
            let position = item.index < 0 ? count + item.index : item.index
            if position < 0 || position >= count {
                fail("events (nth \(item.index)): there is no such event; the stream had \(count)")
            } else if item.index < 0, let kept = tail.first(where: { $0.index == position }) {
                apply(item.check, kept, name: "nth \(item.index)")
            }
        }
        if expectation.any != nil, !anyHeld {
            fail("events (any): none of the \(count) events passed the `any` checks")
        }
    }

    /// The stream ended: the checks that wait for the whole stream (count, last, nth from the end, any, until),
    /// then, when everything held, the captures into `context`.
    package func finish(context: TemplateContext) -> Outcome {
        lock.withLock {
            if !stopped, let format {
                // A last JSON line without its line end is a record.
                if format != .sse, let line = splitter.finish() { _ = dispatch(ServerSentEvent(data: line)) }
            }
            // A response that is no event stream has that failure alone: no follow-on `events count: got 0`.
            if let streamProblem {
                fail(streamProblem)
            } else if !wholeStreamSkipped && !ignoring {
                checkWholeStream(context: context)
            }
            if droppedFailures > 0 { fail("… and \(droppedFailures) more event failures") }
            // The stream's own failures show what arrived.
            let summary = summary()
            for index in failures.indices where failures[index].subject == "events" && failures[index].actual == nil {
                failures[index].actual = summary
            }
            var outcome = Outcome(failures: failures, context: context, captured: [], summary: summary)
            if failures.isEmpty { capture(into: &outcome) }
            return outcome
        }
    }

    /// The event captures into `outcome`'s context.
    private func capture(into outcome: inout Outcome) {
        for spec in captures {
            guard case .stream(.captured(let selector, let field, let path)) = spec.query else { continue }
            let kept: Kept?
            switch selector {
            case .first: kept = first
            case .last: kept = last
            case .terminal: kept = terminal
            case .index(let index): kept = byIndex[index]
            }
            guard let kept else {
                outcome.failures.append(
                    AssertionFailure(
                        location: spec.location, subject: "capture \(spec.name)",
                        message: "capture '\(spec.name)': there is no event \(selector) (\(count) events)"))
                continue
            }
            let query: Query
            if let path {
                query = .jsonpath(path)
            } else if let field {
                query = .stream(.field(field))
            } else if (try? JSONParser.parse(kept.event.data)) != nil, let root = try? JSONPath("$") {
                query = .jsonpath(root)
            } else {
                query = .stream(.field(.data))
            }
            var body = Self.body(of: kept.event, count: kept.index + 1)
            let made = checker.capture(
                [CaptureSpec(name: spec.name, query: query, filters: spec.filters, location: spec.location)],
                body: &body, into: &outcome.context, masker: masker)
            outcome.captured += made.captured
            outcome.failures += made.failures
        }
    }

    /// One line a fact: the number of events, the times, how the stream ended, the first events.
    private func summary() -> String {
        var lines = ["\(count) event\(count == 1 ? "" : "s")" + (terminal.map { _ in ", ended by `until`" } ?? "")]
        if let firstEventAfter { lines[0] += "; first after \(Self.shown(firstEventAfter))" }
        if count > 1 { lines[0] += "; longest gap \(Self.shown(longestGap))" }
        lines += shownLines
        return lines.joined(separator: "\n")
    }

    /// A duration in milliseconds, as reports show it.
    static func shown(_ duration: Duration) -> String {
        let components = duration.components
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.0f ms", milliseconds)
    }
}

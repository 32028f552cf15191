import APITestChecks
import APITestHTTP
import APITestJSON
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation

/// Runs a GraphQL subscription: a `graphql:` request whose URL is `ws://` or `wss://`, over a WebSocket connection
/// speaking the `graphql-transport-ws` protocol (`connection_init` → `connection_ack`, `subscribe` with an id, then
/// `next` … `complete` or `error`, `ping` answered with `pong`, and the client's own `complete` when the step stops
/// reading first). Each `next` payload is one event of `expect.events` (`event: next`, `id`: the operation's id,
/// `data`: the payload as JSON text, `{"data": ...}`), checked as it arrives by the ``EventStreamChecker`` with the
/// same `count`, `each`, `first`, `last`, `nth`, `any`, `until`, `within` and captures as an event stream. The
/// errors of the subscription (an `error` message's list, or the `errors` of a `next` payload) fail the step unless
/// `expect.graphql.errors` says what is expected (docs/streaming.md).
struct GraphQLSubscriptionRunner {
    let executor: TestExecutor
    let step: Step
    let index: Int
    let runtime: SuiteRuntime

    /// The WebSocket subprotocol of GraphQL over WebSocket (the graphql-ws library's protocol).
    static let subprotocol = "graphql-transport-ws"
    /// The id of the step's one operation.
    static let operationID = "1"
    /// How long the server has to acknowledge `connection_init` and to end the conversation when no timeout is set.
    static let defaultTimeout = Duration.seconds(30)

    /// Whether `step` is a subscription: a `graphql:` request whose URL renders to a `ws://` or `wss://` URL.
    static func isSubscription(_ step: Step, context: TemplateContext) -> Bool {
        guard step.request.isGraphQL, step.websocket == nil, let url = try? step.request.url.render(context) else {
            return false
        }
        let scheme = url.prefix(6).lowercased()
        return scheme.hasPrefix("ws://") || scheme.hasPrefix("wss://")
    }

    /// How the conversation ended, for the checks of the whole stream.
    private struct Conversation {
        /// The GraphQL errors the server sent (an `error` message, or the first `next` payload with `errors`).
        var errors: JSONValue?
        /// Failures of the conversation itself (the server closed, a malformed message).
        var failures: [AssertionFailure] = []
        /// Whether the server completed the operation (`complete`).
        var completed = false
    }

    // MARK: - Running

    /// Runs the subscription once from `context`.
    func run(context: TemplateContext) async -> StepAttempt.Outcome {
        let sent: StepPreparation.Prepared
        switch await WebSocketStepRunner.prepareUpgrade(
            step, index: index, executor: executor, runtime: runtime, context: context)
        {
        case .ready(let ready): sent = ready
        case .ended(let outcome): return outcome
        }
        var request = sent.request
        // The upgrade carries no body: the operation goes in the `subscribe` message.
        let operation = Self.operation(of: request.body)
        request.body = .none
        request.method = "GET"
        request.headers.remove(name: "Content-Type")

        var draft = StepDraft(index: index, location: step.location)
        draft.tokenExchanges = sent.tokenExchanges
        let timeout = request.timeout ?? Self.defaultTimeout
        let events = step.expect.events ?? EventsExpectation(location: step.location)
        let stream = EventStreamChecker(
            events, captures: step.captures.filter(EventStreamChecker.isEventCapture), checker: executor.checker,
            context: sent.context, masker: sent.masker)
        let connection: WebSocketConnection
        do throws(WebSocketError) {
            connection = try await WebSocketStepRunner.connect(
                &request, options: WebSocketConnection.Options(subprotocols: [Self.subprotocol]),
                transport: executor.transport)
        } catch {
            draft.error = WebSocketStepRunner.testError(error, at: step.request.url.location)
            draft.exchange = ExchangeRecorder.record(
                request, nil, limit: executor.options.bodyPreviewLimit, masker: sent.masker)
            let status: TestStatus = error.kind == .cancelled ? .cancelled : .errored
            return StepAttempt.Outcome(draft: draft, status: status, sealer: sent.masker, context: context)
        }
        defer { connection.abort() }
        let handshake = connection.handshakeResponse
        stream.beginEvents(status: handshake.status, headers: handshake.headers)

        var conversation = Conversation()
        var status = TestStatus.passed
        if connection.subprotocol != Self.subprotocol {
            conversation.failures.append(
                AssertionFailure(
                    location: step.request.location, subject: "subprotocol",
                    message: "the server did not choose the WebSocket subprotocol \(Self.subprotocol) for the "
                        + "GraphQL subscription (it chose "
                        + (connection.subprotocol.map { "'\($0)'" } ?? "none") + ")",
                    expected: Self.subprotocol, actual: connection.subprotocol ?? ""))
            stream.end(failing: nil)
        } else {
            do throws(WebSocketError) {
                try await converse(
                    connection, operation: operation, stream: stream, timeout: timeout, &conversation)
            } catch {
                if case .cancelled = error.kind {
                    draft.error = TestError(.interrupted, location: step.location)
                    status = .cancelled
                } else {
                    draft.error = WebSocketStepRunner.testError(error, at: step.request.location)
                    status = .errored
                }
            }
        }
        let finished = stream.finish(context: sent.context)
        var failures = conversation.failures
        var checks: [AssertionCheck] = []
        // The answer to the upgrade: `status` (101) and `headers` when written.
        let answer = HTTPResponse(
            statusCode: handshake.status, httpVersion: "1.1", reasonPhrase: handshake.reason,
            headers: handshake.headers, body: Data(), effectiveURL: request.url)
        if step.expect.status != nil || !step.expect.assertions.isEmpty {
            var body = ResponseBody(answer)
            let held = executor.checker.check(
                Expectations(status: step.expect.status, assertions: step.expect.assertions),
                stepLocation: step.location, body: &body, context: sent.context, masker: sent.masker,
                requireSuccessStatus: false, listsChecks: executor.resultDetail == .everyStep)
            failures += held.failures
            checks += held.checks
        }
        failures += finished.failures
        failures += graphQLFailures(conversation.errors, context: sent.context, masker: sent.masker)
        if status == .passed, !failures.isEmpty { status = .failed }
        draft.failures = failures
        draft.checks = checks
        if status == .passed { draft.captured = finished.captured }
        let transcript = WebSocketTranscript.text(of: connection.transcript)
        let response = HTTPResponse(
            statusCode: handshake.status, httpVersion: "1.1", reasonPhrase: handshake.reason,
            headers: handshake.headers,
            body: Data((finished.summary + "\n\n" + transcript).utf8), effectiveURL: request.url,
            tlsEvaluation: connection.tlsEvaluation)
        draft.exchange = ExchangeRecorder.record(
            request, response, limit: executor.options.bodyPreviewLimit, masker: sent.masker,
            detail: executor.resultDetail.forStep(passed: status == .passed))
        if let first = stream.timeToFirstEvent { draft.exchange?.timings?.firstEvent = first }
        return StepAttempt.Outcome(
            draft: draft, status: status, sealer: sent.masker,
            context: status == .passed ? finished.context : context)
    }

    /// The operation (`{"query", "variables", "operationName"}`) of the request's JSON body.
    static func operation(of body: HTTPRequest.Body) -> JSONValue {
        guard case .data(let data) = body, let value = try? JSONParser.parse(Array(data)) else { return [:] }
        return value
    }

    // MARK: - The protocol

    /// `connection_init`, the `connection_ack`, `subscribe`, then the messages until the operation completes, fails,
    /// or the stream stops it (`until`, `within`, a check), or the step's `timeout` passes.
    private func converse(
        _ connection: WebSocketConnection, operation: JSONValue, stream: EventStreamChecker, timeout: Duration,
        _ conversation: inout Conversation
    ) async throws(WebSocketError) {
        let deadline = ContinuousClock.now + timeout
        try await connection.send(text: #"{"type":"connection_init","payload":{}}"#, timeout: timeout)
        // The server acknowledges first; pings before it are answered.
        while true {
            guard let message = try await nextMessage(connection, until: deadline, &conversation) else {
                stream.end(failing: nil)
                return
            }
            if message.type == "connection_ack" { break }
            if message.type == "ping" {
                try await connection.send(text: #"{"type":"pong"}"#, timeout: timeout)
                continue
            }
            if !message.type.isEmpty {
                conversation.failures.append(
                    failure(
                        "expected connection_ack from the server, it sent \(quoting: message.type, limit: 100) first"))
            }
            stream.end(failing: nil)
            return
        }
        let subscribe: JSONValue = ["id": .string(Self.operationID), "type": "subscribe", "payload": operation]
        try await connection.send(text: JSONWriter.string(subscribe), timeout: timeout)
        while true {
            // Wake at the stream's own time limit (`within`) when it comes before the step's.
            var wake = deadline
            if case .some(.some(let limit)) = stream.deadline() { wake = min(wake, limit) }
            let message: Message?
            do throws(WebSocketError) {
                message = try await nextMessage(connection, until: wake, &conversation)
            } catch {
                guard case .timedOut = error.kind else { throw error }
                let now = ContinuousClock.now
                if now >= deadline {
                    stream.timedOut()
                } else if !stream.expire(at: now) {
                    continue
                }
                try await stop(connection, timeout: timeout)
                return
            }
            guard let message else {
                stream.end(failing: nil)
                return
            }
            switch message.type {
            case "next" where message.id == Self.operationID:
                let payload = message.payload ?? .null
                if conversation.errors == nil, let errors = payload["errors"], errors != .null {
                    conversation.errors = errors
                }
                let event = ServerSentEvent(event: "next", data: JSONWriter.string(payload), id: message.id)
                if !stream.receive(event: event) {
                    try await stop(connection, timeout: timeout)
                    return
                }
            case "error" where message.id == Self.operationID:
                conversation.errors = message.payload ?? .array([])
                // The errors are checked (or are the failure) below; no follow-on failures of the stream's checks.
                if step.expect.graphql?.errorsExpected != true { stream.end(failing: nil) }
                try await closeQuietly(connection)
                return
            case "complete" where message.id == Self.operationID:
                conversation.completed = true
                try await closeQuietly(connection)
                return
            case "ping":
                try await connection.send(text: #"{"type":"pong"}"#, timeout: timeout)
            case "pong":
                continue
            case "":
                // Not a protocol message: its failure is recorded.
                stream.end(failing: nil)
                try await closeQuietly(connection)
                return
            default:
                let id = message.id ?? "none"
                conversation.failures.append(
                    failure(
                        "unexpected message \(quoting: message.type, limit: 100) (id \(quoting: id, limit: 100))"))
                stream.end(failing: nil)
                try await closeQuietly(connection)
                return
            }
        }
    }

    /// The step stops reading first: `complete` for the operation, then a close.
    private func stop(_ connection: WebSocketConnection, timeout: Duration) async throws(WebSocketError) {
        let complete = #"{"id":"\#(Self.operationID)","type":"complete"}"#
        try? await connection.send(text: complete, timeout: min(timeout, .seconds(5)))
        try await closeQuietly(connection)
    }

    /// Closes with 1000, not waiting long for the server's answer.
    private func closeQuietly(_ connection: WebSocketConnection) async throws(WebSocketError) {
        do throws(WebSocketError) {
            _ = try await connection.close(code: 1000, reason: "", timeout: .seconds(1))
        } catch {
            if case .cancelled = error.kind { throw error }
        }
    }

    /// A graphql-transport-ws message: its `type`, `id` and `payload`.
    private struct Message {
        var type: String
        var id: String?
        var payload: JSONValue?
    }

    /// The next protocol message before `deadline`; nil when the server closed the connection (a failure is
    /// recorded). A binary message or text that is not a message object is a protocol failure.
    private func nextMessage(
        _ connection: WebSocketConnection, until deadline: ContinuousClock.Instant, _ conversation: inout Conversation
    ) async throws(WebSocketError) -> Message? {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw WebSocketError(.timedOut(after: .zero, waitingFor: "message")) }
            switch try await connection.receive(timeout: left) {
            case .ping, .pong: continue
            case .close(let code, let reason):
                conversation.failures.append(
                    AssertionFailure(
                        location: step.request.location, subject: "close",
                        text: """
                            the server closed the connection (\(WebSocketStepRunner.closeText(code, reason))) \
                            before the subscription completed
                            """))
                return nil
            case .message(let message):
                guard message.kind == .text, let value = try? JSONParser.parse(message.data),
                    case .string(let type)? = value["type"]
                else {
                    let shown = String(decoding: message.data.prefix(200), as: UTF8.self)
                    conversation.failures.append(
                        failure("the server sent \(quoting: shown, limit: 200), not a graphql-transport-ws message"))
                    return Message(type: "", id: nil, payload: nil)
                }
                var id: String?
                if case .string(let text)? = value["id"] { id = text }
                return Message(type: type, id: id, payload: value["payload"])
            }
        }
    }

    private func failure(_ text: MessageText) -> AssertionFailure {
        AssertionFailure(location: step.request.location, subject: "graphql subscription", text: text)
    }

    // MARK: - Errors

    /// The subscription's GraphQL errors against `expect.graphql` (without it, errors fail the step).
    private func graphQLFailures(
        _ errors: JSONValue?, context: TemplateContext, masker: SecretMasker
    ) -> [AssertionFailure] {
        let document: JSONValue = errors.map { ["errors": $0] } ?? [:]
        let response = HTTPResponse(
            statusCode: 200, httpVersion: "1.1", headers: ["Content-Type": "application/json"],
            body: Data(JSONWriter.string(document).utf8), effectiveURL: "")
        var body = ResponseBody(response)
        return executor.checker.checkGraphQL(
            step.expect.graphql, requestLocation: step.request.location, body: &body, context: context,
            masker: masker)
    }
}

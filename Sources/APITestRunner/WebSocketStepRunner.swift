import APITestChecks
import APITestHTTP
import APITestJSON
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation

/// Runs a `websocket:` step: the request is prepared as any step's (templates, auth, OAuth2 token, the suite's
/// security policy and transport, the masker), the connection opened over libcurl (`WebSocketConnection`), then
/// each action in order. A message is checked as a response body is (`ResponseChecker`, the same `expect` keys
/// that apply to a body) and captured from the same way. The step's exchange is the upgrade, with the frames sent
/// and received as the response body's preview, so every report shows them and the sealing point masks them.
struct WebSocketStepRunner {
    let executor: TestExecutor
    let step: Step
    let spec: WebSocketSpec
    let index: Int
    let runtime: SuiteRuntime

    /// How the step's conversation stands between actions.
    private struct Conversation {
        var context: TemplateContext
        /// Messages read while a ping waited for its pong: the next `expect` or `match` reads them first.
        var pending: [WebSocketMessage] = []
        /// The server's close frame, once read.
        var serverClose: (code: UInt16?, reason: String)?
        var failures: [AssertionFailure] = []
        var checks: [AssertionCheck] = []
        var captured: [String] = []
    }

    /// A failure that ends the conversation: the step fails (an action's check) or errors (the connection).
    private enum Stop: Error {
        case failed
        case errored(TestError)
    }

    // MARK: - The upgrade request

    /// How preparing an upgrade request ended.
    enum UpgradePreparation {
        /// The request, built and ready, its URL `ws://` or `wss://` again.
        case ready(StepPreparation.Prepared)
        /// The step ended before anything was sent (a template error, a skip, an auth failure).
        case ended(StepAttempt.Outcome)
    }

    /// The upgrade request of `step` (a `websocket:` step or a GraphQL subscription) from `context`: its URL rendered
    /// (a secret in the query as one value, `renderURL`), a `ws://` or `wss://` URL built and resolved as the
    /// http(s) URL it upgrades, through the step preparation every request has, and given back its scheme.
    static func prepareUpgrade(
        _ step: Step, index: Int, executor: TestExecutor, runtime: SuiteRuntime, context: TemplateContext
    ) async -> UpgradePreparation {
        var prepared = step
        do {
            let url = try step.request.url.renderURL(context)
            prepared.request.url = Template(literal: httpURL(url), location: step.request.url.location)
        } catch {
            let draft = StepDraft(
                index: index, location: step.location,
                error: TestError(.template(error), location: step.request.url.location))
            return .ended(
                StepAttempt.Outcome(draft: draft, status: .errored, sealer: runtime.masker, context: context))
        }
        let preparation = StepPreparation(
            executor: executor, step: prepared, index: index, runtime: runtime, until: nil)
        switch await preparation.run(context: context) {
        case .ready(var ready):
            ready.request.url = webSocketURL(ready.request.url)
            return .ready(ready)
        case .ended(let draft, let status, let sealer):
            return .ended(StepAttempt.Outcome(draft: draft, status: status, sealer: sealer, context: context))
        }
    }

    // MARK: - Running

    /// Runs the step once from `context`.
    func run(context: TemplateContext) async -> StepAttempt.Outcome {
        var upgrade = step
        upgrade.websocket = nil
        upgrade.captures = []
        let sent: StepPreparation.Prepared
        switch await Self.prepareUpgrade(
            upgrade, index: index, executor: executor, runtime: runtime, context: context)
        {
        case .ready(let ready): sent = ready
        case .ended(let outcome): return outcome
        }
        var request = sent.request

        var draft = StepDraft(index: index, location: step.location)
        draft.tokenExchanges = sent.tokenExchanges
        let options = WebSocketConnection.Options(
            subprotocols: spec.subprotocols,
            maxMessageSize: spec.maxMessageSize ?? WebSocketConnection.Options.defaultMaxMessageSize)
        let connection: WebSocketConnection
        do throws(WebSocketError) {
            connection = try await Self.connect(&request, options: options, transport: executor.transport)
        } catch {
            draft.error = testError(error, at: step.request.url.location)
            draft.exchange = ExchangeRecorder.record(
                request, nil, limit: executor.options.bodyPreviewLimit, masker: sent.masker)
            let status: TestStatus = error.kind == .cancelled ? .cancelled : .errored
            return StepAttempt.Outcome(draft: draft, status: status, sealer: sent.masker, context: context)
        }
        defer { connection.abort() }

        var conversation = Conversation(context: sent.context)
        var status = TestStatus.passed
        do throws(Stop) {
            if let expected = spec.expectedSubprotocol, connection.subprotocol != expected {
                conversation.failures.append(
                    AssertionFailure(
                        location: spec.location, subject: "subprotocol",
                        message: "expected the server to choose the subprotocol '\(expected)', "
                            + (connection.subprotocol.map { "it chose '\($0)'" } ?? "it chose none"),
                        expected: expected, actual: connection.subprotocol ?? ""))
                throw .failed
            }
            for action in spec.actions {
                try await perform(action, on: connection, request: request, masker: sent.masker, &conversation)
            }
            // Without a close action the step still ends the conversation politely; the answer is not checked.
            if conversation.serverClose == nil { _ = try? await connection.close(timeout: .seconds(1)) }
        } catch {
            switch error {
            case .failed: status = .failed
            case .errored(let testError):
                draft.error = testError
                status = testError.kind == .cancelled ? .cancelled : .errored
            }
        }
        if status == .passed, !conversation.failures.isEmpty { status = .failed }
        draft.failures = conversation.failures
        draft.checks = conversation.checks
        draft.captured = conversation.captured
        let response = HTTPResponse(
            statusCode: connection.handshakeResponse.status, httpVersion: "1.1",
            reasonPhrase: connection.handshakeResponse.reason, headers: connection.handshakeResponse.headers,
            body: Data(WebSocketTranscript.text(of: connection.transcript).utf8), effectiveURL: request.url,
            tlsEvaluation: connection.tlsEvaluation)
        draft.exchange = ExchangeRecorder.record(
            request, response, limit: executor.options.bodyPreviewLimit, masker: sent.masker,
            detail: executor.resultDetail.forStep(passed: status == .passed))
        return StepAttempt.Outcome(
            draft: draft, status: status, sealer: sent.masker,
            context: status == .passed ? conversation.context : context)
    }

    // MARK: - Actions

    /// Performs one action; throws `Stop` when the step cannot go on.
    private func perform(
        _ action: WebSocketAction, on connection: WebSocketConnection, request: HTTPRequest, masker: SecretMasker,
        _ conversation: inout Conversation
    ) async throws(Stop) {
        let timeout = action.timeout ?? spec.timeout ?? WebSocketSpec.defaultTimeout
        switch action.kind {
        case .sendText(let template):
            let text = try render(template, conversation.context)
            try await io(action) { () throws(WebSocketError) in try await connection.send(text: text, timeout: timeout)
            }
        case .sendJSON(let value):
            let json: JSONValue
            do throws(TemplateError) {
                json = try value.render(conversation.context)
            } catch {
                throw .errored(TestError(.template(error), location: action.location))
            }
            let text = JSONWriter.string(json)
            try await io(action) { () throws(WebSocketError) in try await connection.send(text: text, timeout: timeout)
            }
        case .sendFile(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .errored(
                    TestError(
                        kind: .request, message: "cannot read the file '\(path)' to send", location: action.location))
            }
            try await io(action) { () throws(WebSocketError) in
                try await connection.send(binary: Array(data), timeout: timeout)
            }
        case .expect(let expectations):
            let message = try await nextMessage(action, connection, timeout: timeout, &conversation)
            let held = check(message, expectations, action, request: request, masker: masker, &conversation)
            if !held { throw .failed }
        case .match(let expectations):
            try await match(
                expectations, action, connection, request: request, masker: masker, timeout: timeout, &conversation)
        case .ping(let template):
            var payload = ""
            if let template { payload = try render(template, conversation.context) }
            try await ping(Array(payload.utf8), action, connection, timeout: timeout, &conversation)
        case .close(let close):
            try await self.close(close, action, connection, timeout: timeout, &conversation)
        }
    }

    /// The next message: one read while a ping waited, else the next from the server within `timeout`.
    private func nextMessage(
        _ action: WebSocketAction, _ connection: WebSocketConnection, timeout: Duration,
        _ conversation: inout Conversation
    ) async throws(Stop) -> WebSocketMessage {
        if !conversation.pending.isEmpty { return conversation.pending.removeFirst() }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            let event = try await io(action, waited: timeout) { () throws(WebSocketError) in
                try await connection.receive(timeout: max(left, .zero))
            }
            switch event {
            case .message(let message): return message
            case .ping, .pong: continue
            case .close(let code, let reason):
                conversation.serverClose = (code, reason)
                conversation.failures.append(
                    AssertionFailure(
                        location: action.location, subject: action.name,
                        text:
                            "the server closed the connection (\(Self.closeText(code, reason))) before a message arrived"
                    ))
                throw .failed
            }
        }
    }

    /// Reads messages until one passes `expectations` within `timeout`; the others are skipped.
    private func match(
        _ expectations: Expectations, _ action: WebSocketAction, _ connection: WebSocketConnection,
        request: HTTPRequest, masker: SecretMasker, timeout: Duration, _ conversation: inout Conversation
    ) async throws(Stop) {
        let deadline = ContinuousClock.now + timeout
        var skipped = 0
        while true {
            let left = deadline - ContinuousClock.now
            let message: WebSocketMessage
            do throws(Stop) {
                message = try await nextMessage(action, connection, timeout: max(left, .zero), &conversation)
            } catch {
                if case .errored(let testError) = error, testError.kind == .transfer(.timedOut) {
                    conversation.failures.append(
                        AssertionFailure(
                            location: action.location, subject: "match",
                            message: "no message matched within \(DurationFormatter.format(timeout)) "
                                + "(\(skipped) message\(skipped == 1 ? "" : "s") did not)"))
                    throw .failed
                }
                throw error
            }
            var trial = conversation
            trial.failures = []
            if check(message, expectations, action, request: request, masker: masker, &trial) {
                conversation = trial
                return
            }
            skipped += 1
        }
    }

    /// Sends a ping and waits for a pong; messages that come first are kept for the next `expect`.
    private func ping(
        _ payload: [UInt8], _ action: WebSocketAction, _ connection: WebSocketConnection, timeout: Duration,
        _ conversation: inout Conversation
    ) async throws(Stop) {
        try await io(action) { () throws(WebSocketError) in
            try await connection.send(WebSocketFrame(opcode: .ping, payload: payload), timeout: timeout)
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            let event = try await io(action, waited: timeout) { () throws(WebSocketError) in
                try await connection.receive(timeout: max(left, .zero))
            }
            switch event {
            case .pong: return
            case .message(let message): conversation.pending.append(message)
            case .ping: continue
            case .close(let code, let reason):
                conversation.serverClose = (code, reason)
                conversation.failures.append(
                    AssertionFailure(
                        location: action.location, subject: "ping",
                        text:
                            "the server closed the connection (\(Self.closeText(code, reason))) instead of answering the ping"
                    ))
                throw .failed
            }
        }
    }

    /// Closes (or finishes the close the server started) and checks the server's close frame.
    private func close(
        _ close: WebSocketClose, _ action: WebSocketAction, _ connection: WebSocketConnection, timeout: Duration,
        _ conversation: inout Conversation
    ) async throws(Stop) {
        if conversation.serverClose == nil, !close.initiates {
            try await awaitClose(action, connection, timeout: timeout, &conversation)
        }
        if conversation.serverClose == nil {
            var reason = ""
            if let template = close.reason { reason = try render(template, conversation.context) }
            let event = try await io(action, waited: timeout) { () throws(WebSocketError) in
                try await connection.close(code: UInt16(close.code), reason: reason, timeout: timeout)
            }
            if case .close(let code, let reason)? = event { conversation.serverClose = (code, reason) }
        }
        let received = conversation.serverClose
        if let expected = close.expectedCode {
            // 1005: the server's close frame had no code (section 7.1.5).
            let actual = received.map { Int($0.code ?? 1005) } ?? 1006
            let passed = actual == expected
            conversation.checks.append(
                AssertionCheck(
                    location: action.location, subject: "close code", expected: "\(expected)", passed: passed))
            if !passed {
                conversation.failures.append(
                    AssertionFailure(
                        location: action.location, subject: "close code",
                        message: "expected the server to close with \(expected), got \(actual)",
                        expected: "\(expected)", actual: "\(actual)"))
            }
        }
        if let template = close.expectedReason {
            let expected = try render(template, conversation.context)
            let actual = received?.reason ?? ""
            let passed = actual == expected
            conversation.checks.append(
                AssertionCheck(
                    location: action.location, subject: "close reason", expected: expected, passed: passed))
            if !passed {
                conversation.failures.append(
                    AssertionFailure(
                        location: action.location, subject: "close reason",
                        text:
                            "expected the close reason \(quoting: expected, limit: 200), got \(quoting: actual, limit: 200)"
                    ))
            }
        }
        if !conversation.failures.isEmpty { throw .failed }
    }

    /// Reads until the server's close frame (answered by the connection) within `timeout`; messages that come first
    /// are skipped (the transcript shows them).
    private func awaitClose(
        _ action: WebSocketAction, _ connection: WebSocketConnection, timeout: Duration,
        _ conversation: inout Conversation
    ) async throws(Stop) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            let event: WebSocketEvent
            do throws(WebSocketError) {
                event = try await connection.receive(timeout: max(left, .zero))
            } catch {
                if case .timedOut = error.kind {
                    conversation.failures.append(
                        AssertionFailure(
                            location: action.location, subject: "close",
                            message:
                                "the server did not close the connection within \(DurationFormatter.format(timeout))"))
                    throw .failed
                }
                throw .errored(testError(error, at: action.location, action: action.name))
            }
            if case .close(let code, let reason) = event {
                conversation.serverClose = (code, reason)
                return
            }
        }
    }

    // MARK: - Checking a message

    /// Checks `message` as a response body and, when it holds, takes the action's captures from it.
    private func check(
        _ message: WebSocketMessage, _ expectations: Expectations, _ action: WebSocketAction, request: HTTPRequest,
        masker: SecretMasker, _ conversation: inout Conversation
    ) -> Bool {
        let response = HTTPResponse(
            statusCode: 200, httpVersion: "1.1", headers: ["Content-Type": Self.contentType(of: message)],
            body: Data(message.data), effectiveURL: request.url)
        var body = ResponseBody(
            response, chain: runtime.decoders,
            removesKeysWithNullValues: runtime.suite.responseDecoding.removesKeysWithNullValues)
        let result = executor.checker.check(
            expectations, stepLocation: action.location, body: &body, context: conversation.context, masker: masker,
            requireSuccessStatus: false, decoding: runtime.suite.responseDecoding,
            listsChecks: executor.resultDetail == .everyStep)
        conversation.checks += result.checks
        guard result.failures.isEmpty else {
            conversation.failures += result.failures
            return false
        }
        let capture = StepCapture(checker: executor.checker, captures: action.captures)
            .run(&body, context: conversation.context, masker: masker)
        conversation.context = capture.context
        conversation.captured += capture.captured
        conversation.failures += capture.failures
        return capture.failures.isEmpty
    }

    /// The media type a message is checked as: JSON for a text message that parses as JSON, else text; binary
    /// messages are octets.
    static func contentType(of message: WebSocketMessage) -> String {
        guard message.kind == .text else { return "application/octet-stream" }
        return (try? JSONParser.parse(message.data)) != nil ? "application/json" : "text/plain; charset=utf-8"
    }

    // MARK: - Errors

    /// Renders `template`, a template error ending the step.
    private func render(_ template: Template, _ context: TemplateContext) throws(Stop) -> String {
        do throws(TemplateError) {
            return try template.render(context)
        } catch {
            throw .errored(TestError(.template(error), location: template.location))
        }
    }

    /// Runs a connection call, its error ending the step as an error of `action`.
    private func io<Value>(
        _ action: WebSocketAction, waited: Duration? = nil, _ work: () async throws(WebSocketError) -> Value
    ) async throws(Stop) -> Value {
        do throws(WebSocketError) {
            return try await work()
        } catch {
            var error = error
            if let waited, case .timedOut(_, let what) = error.kind {
                error = WebSocketError(.timedOut(after: waited, waitingFor: what))
            }
            throw .errored(testError(error, at: action.location, action: action.name))
        }
    }

    /// Opens a connection for `request` (a `ws://` or `wss://` URL) with `options`: the upgrade sends the cookies
    /// of the request's jar that match its URL (beside a `Cookie` field of its own), and the cookies the answer sets
    /// are stored in the jar, as for any request.
    static func connect(
        _ request: inout HTTPRequest, options: WebSocketConnection.Options, transport: any HTTPTransport
    ) async throws(WebSocketError) -> WebSocketConnection {
        guard let jar = request.cookieJar else {
            return try await WebSocketConnection.connect(request, options: options)
        }
        let lines = await transport.cookies(of: jar, adding: [])
        if let cookies = WebSocketCookies.header(for: request.url, lines: lines) {
            let own = request.headers.values(for: "Cookie")
            request.headers.remove(name: "Cookie")
            request.headers.add(name: "Cookie", value: (own + [cookies]).joined(separator: "; "))
        }
        let connection = try await WebSocketConnection.connect(request, options: options)
        let set = WebSocketCookies.lines(setBy: connection.handshakeResponse.headers, for: request.url)
        if !set.isEmpty { _ = await transport.cookies(of: jar, adding: set) }
        return connection
    }

    /// The step's error for a connection that failed.
    private func testError(_ error: WebSocketError, at location: SourceLocation, action: String? = nil) -> TestError {
        Self.testError(error, at: location, action: action)
    }

    /// The step's error for a connection that failed.
    static func testError(_ error: WebSocketError, at location: SourceLocation, action: String? = nil) -> TestError {
        if case .connect(let httpError) = error.kind { return TestError(.http(httpError), location: location) }
        let reason: TransferFailureReason
        switch error.kind {
        case .connect: reason = .connectionFailed
        case .invalidURL, .unsupportedAuthentication: reason = .invalidRequest
        case .notUpgraded, .malformedResponse, .missingUpgrade, .missingConnectionUpgrade, .badAccept,
            .unofferedSubprotocol, .unrequestedExtension, .handshakeTooLarge:
            reason = .webSocketHandshake
        case .maskedServerFrame, .reservedBits, .unknownOpcode, .controlFrameTooLong, .fragmentedControlFrame,
            .unexpectedContinuation, .expectedContinuation, .invalidLength, .invalidUTF8, .invalidClose,
            .messageTooLarge, .connectionClosed:
            reason = .webSocketProtocol
        case .io: reason = .connectionReset
        case .timedOut: reason = .timedOut
        case .alreadyClosed: reason = .webSocketProtocol
        case .cancelled: reason = .cancelled
        }
        let prefix = action.map { "\($0): " } ?? ""
        return TestError(kind: TestError.Kind(reason), message: prefix + error.description, location: location)
    }

    // MARK: - URLs

    /// `ws://` as `http://` and `wss://` as `https://`, for the request builder (other URLs unchanged).
    static func httpURL(_ url: String) -> String {
        let lower = url.prefix(6).lowercased()
        if lower.hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        if lower.hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        return url
    }

    /// `http://` as `ws://` and `https://` as `wss://`: the URL reports show.
    static func webSocketURL(_ url: String) -> String {
        let lower = url.prefix(8).lowercased()
        if lower.hasPrefix("http://") { return "ws://" + url.dropFirst(7) }
        if lower.hasPrefix("https://") { return "wss://" + url.dropFirst(8) }
        return url
    }

    /// `1000 'bye'`, `no code`.
    static func closeText(_ code: UInt16?, _ reason: String) -> MessageText {
        guard let code else { return "no code" }
        return reason.isEmpty ? "code \(code)" : "code \(code) \(quoting: reason, limit: 200)"
    }
}

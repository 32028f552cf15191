import APITestChecks
import APITestHTTP
import APITestJSON
import APITestProtobuf
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation
import Synchronization

/// Runs one attempt of a `grpc:` step (docs/grpc.md#steps). The call's connection is prepared as any request's
/// (`StepPreparation`: templates, metadata as header fields, the suite's security policy, `resolve`, `connectTo`,
/// proxy, the masker), then sent through the HTTP layer's gRPC transport (`SessionManager.performGRPC`) with the
/// messages encoded from their JSON mapping by the suite's schema. The status is checked first (OK unless
/// `expect.grpc.status` says otherwise); then `expect.grpc`'s message, details and trailers, and the response
/// message(s) as a JSON body with the usual checks (`json`, `headers` on the response metadata, `schema`, ...) and
/// captures; a stream's messages go through `expect.events` as a JSON-lines stream would. The exchange shows the
/// request and response messages as JSON, so reports mask and cut them as bodies.
struct GRPCStepRunner {
    let executor: TestExecutor
    let step: Step
    let spec: GRPCSpec
    let index: Int
    let runtime: SuiteRuntime
    /// Checked before `expect` when polling.
    let until: Expectations?

    /// A reason the attempt ends before the checks.
    private struct Ended: Error {
        var error: TestError
    }

    // MARK: - Running

    /// Runs the call once from `context`.
    func run(context: TemplateContext) async -> StepAttempt.Outcome {
        var target = step
        target.grpc = nil
        target.expect = Expectations()
        target.captures = []
        target.retry = nil
        do throws(Ended) {
            target.request.url = Template(literal: try url(context), location: step.request.url.location)
        } catch {
            return ended(error.error, context: context, masker: runtime.masker)
        }
        let preparation = StepPreparation(executor: executor, step: target, index: index, runtime: runtime, until: nil)
        let prepared: StepPreparation.Prepared
        switch await preparation.run(context: context) {
        case .ready(let ready): prepared = ready
        case .ended(let draft, let status, let sealer):
            return StepAttempt.Outcome(draft: draft, status: status, sealer: sealer, context: context)
        }
        let call: Call
        do throws(Ended) {
            call = try await makeCall(prepared)
        } catch {
            return ended(error.error, context: context, masker: prepared.masker, request: prepared.request)
        }
        return await perform(call, prepared, context: context)
    }

    /// The grpcurl command of the step's call as `prepared` (``TestExecutor/reproduce(_:runtime:context:sent:masker:)``
    /// of the step itself, its `grpc:` set).
    private func reproduce(_ prepared: StepPreparation.Prepared) -> ReproduceCommand? {
        executor.reproduce(
            step, runtime: runtime, context: prepared.context, sent: prepared.request, masker: prepared.masker)
    }

    /// The server's URL: the step's `url` (rendered; `grpc://` as `http://`, `grpcs://` as `https://`; a relative
    /// one resolves against baseURL when the request is built), or the suite's baseURL.
    private func url(_ context: TemplateContext) throws(Ended) -> String {
        guard spec.hasURL else { return runtime.serializer.baseURL ?? "" }
        do throws(TemplateError) {
            return Self.httpURL(try step.request.url.renderURL(context))
        } catch {
            throw Ended(error: TestError(.template(error), location: step.request.url.location))
        }
    }

    /// `grpc://` as `http://` (h2c) and `grpcs://` as `https://` (TLS); a bare `host:port` (grpcurl's form of a
    /// target) as `http://host:port`; others as they are.
    static func httpURL(_ url: String) -> String {
        let lower = url.prefix(8).lowercased()
        if lower.hasPrefix("grpc://") { return "http://" + url.dropFirst(7) }
        if lower.hasPrefix("grpcs://") { return "https://" + url.dropFirst(8) }
        if isHostAndPort(url) { return "http://" + url }
        return url
    }

    /// Whether `text` is `host:port` with no scheme and no path (`localhost:50051`, `[::1]:50051`).
    static func isHostAndPort(_ text: String) -> Bool {
        guard !text.contains("/"), let colon = text.lastIndex(of: ":") else { return false }
        let host = text[..<colon]
        let port = text[text.index(after: colon)...]
        guard !host.isEmpty, !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else {
            return false
        }
        return host.hasPrefix("[") || !host.contains(":")
    }

    // MARK: - The call

    /// What is sent: the call, and the method and schema it was encoded with.
    private struct Call {
        var description: GRPCCallDescription
        var method: ProtoMethodDescriptor
        var schema: ProtoSchema
        /// The request messages as JSON, for the exchange.
        var json: [JSONValue]
    }

    /// The call of `prepared`'s request: the schema and method, the messages rendered and encoded, the metadata.
    private func makeCall(_ prepared: StepPreparation.Prepared) async throws(Ended) -> Call {
        let request = prepared.request
        var metadata = GRPCMetadata()
        let keys = Set(spec.metadataKeys)
        for field in request.headers where keys.contains(field.name.lowercased()) {
            let key = field.name.lowercased()
            if key.hasSuffix("-bin"), let bytes = Self.base64(field.value) {
                metadata.add(key, .binary(bytes))
            } else {
                metadata.add(key, .text(field.value))
            }
        }
        var authority: String?
        if let template = spec.authority {
            do throws(TemplateError) {
                authority = try template.render(prepared.context)
            } catch {
                throw Ended(error: TestError(.template(error), location: template.location))
            }
        }
        var description = GRPCCallDescription(
            baseURL: request.url, path: "", messages: [], metadata: metadata, deadline: request.timeout,
            authority: authority,
            maxResponseMessageSize: spec.maxMessageSize ?? GRPCCallDescription.defaultMaxResponseMessageSize,
            security: request.security, resolve: request.resolve, transport: request.transport,
            connectTimeout: request.connectTimeout, recordsSentHeaders: request.recordsSentHeaders)
        let schema = try await schema(for: description)
        let method: ProtoMethodDescriptor
        if let resolved = spec.resolved {
            method = resolved
        } else {
            do throws(ProtobufError) {
                method = try schema.method(spec.method)
            } catch {
                throw Ended(error: TestError(kind: .request, message: error.message, location: spec.methodLocation))
            }
            if let problem = GRPCSchemaCheck.problems(of: spec, method: method, schema: schema).first {
                throw Ended(error: TestError(kind: .request, message: problem.message, location: problem.location))
            }
        }
        var json: [JSONValue] = []
        var messages: [Data] = []
        let written =
            spec.messages.isEmpty && !spec.isMessageList
            ? [GRPCMessageSpec(value: .object([]), location: spec.location)] : spec.messages
        for (position, message) in written.enumerated() {
            let value: JSONValue
            do throws(TemplateError) {
                value = try message.value.render(prepared.context)
            } catch {
                throw Ended(error: TestError(.template(error), location: message.location))
            }
            do throws(ProtobufError) {
                messages.append(Data(try schema.encode(value, as: method.inputType)))
            } catch {
                let which = written.count > 1 ? "request message \(position + 1)" : "the request message"
                throw Ended(
                    error: TestError(
                        kind: .request, message: "\(which) does not fit \(method.inputType): \(error.description)",
                        location: message.location))
            }
            json.append(value)
        }
        description.path = method.path
        description.messages = messages
        return Call(description: description, method: method, schema: schema, json: json)
    }

    /// The schema of `target`'s call: the suite's `.proto` files', or the server's through reflection (asked once
    /// per server in the run; a failure errors the step, located at its `grpc:`).
    private func schema(for target: GRPCCallDescription) async throws(Ended) -> ProtoSchema {
        if let loaded = runtime.suite.grpcSchema { return loaded.schema }
        guard runtime.suite.grpc?.reflection == true else {
            throw Ended(
                error: TestError(
                    kind: .request, message: "the suite's grpc: names no .proto files and no reflection",
                    location: spec.location))
        }
        guard let session = executor.transport as? SessionManager else {
            throw Ended(
                error: TestError(
                    kind: .request, message: "gRPC calls need the libcurl transport", location: spec.location))
        }
        var reflection = target
        // The reflection calls of a step with a short deadline still get the time they need.
        reflection.deadline = nil
        switch await executor.grpcSchemas.schema(for: reflection, session: session) {
        case .success(let schema):
            executor.grpcCoverage?.register(
                reflected: schema, server: GRPCCoverageRecorder.serverName(of: target.baseURL))
            return schema
        case .failure(let failure):
            throw Ended(
                error: TestError(
                    kind: .request, message: "cannot read the server's schema through reflection: \(failure.message)",
                    location: spec.location))
        }
    }

    /// Bytes of a `-bin` metadata value written in base64 (padded or not, standard or URL-safe); nil for other text.
    static func base64(_ text: String) -> Data? {
        var text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = text.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { text += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: text)
    }

    // MARK: - Sending and checking

    /// Sends `call` and checks what came back.
    private func perform(
        _ call: Call, _ prepared: StepPreparation.Prepared, context: TemplateContext
    ) async -> StepAttempt.Outcome {
        var shown = prepared.request
        shown.url = (try? call.description.url()) ?? prepared.request.url
        shown.body = .data(Data(Self.text(of: call.json, asList: spec.isMessageList).utf8))
        guard let session = executor.transport as? SessionManager else {
            return ended(
                TestError(kind: .request, message: "gRPC calls need the libcurl transport", location: spec.location),
                context: context, masker: prepared.masker, request: shown)
        }
        var stream: EventStreamChecker?
        if let events = step.expect.events {
            let checker = EventStreamChecker(
                events, captures: step.captures.filter(EventStreamChecker.isEventCapture), checker: executor.checker,
                context: prepared.context, masker: prepared.masker)
            checker.beginEvents(status: 200, headers: HTTPHeaders([("Content-Type", "application/x-ndjson")]))
            stream = checker
        }
        // A stream checked by `events` alone keeps only its first messages (for the exchange), so an endless one
        // runs in constant memory until `until` or the deadline ends it.
        let readsBody =
            step.expect.events == nil || !step.expect.assertions.isEmpty || step.expect.schema != nil
            || step.expect.snapshot != nil || until != nil
            || step.captures.contains { !EventStreamChecker.isEventCapture($0) }
        let collector = GRPCResponseCollector(
            schema: call.schema, type: call.method.outputType, stream: stream, keeps: readsBody ? Int.max : 20)
        // A run that records every request (`--curl`) numbers the call's command in the order calls are sent.
        var command: ReproduceCommand?
        if executor.options.recordsRequestCommands {
            command = reproduce(prepared)
            command?.sequence = executor.sequence.next()
        }
        let sentAt = Date()
        let result: GRPCCallResult
        do {
            result = try await session.performGRPC(call.description, onMessage: collector.receive)
        } catch let error as GRPCError {
            return ended(
                TestError(kind: .request, message: error.description, location: spec.location), context: context,
                masker: prepared.masker, request: shown, reproduce: command ?? reproduce(prepared))
        } catch {
            return ended(
                TestError(.interrupted, location: step.location), context: context, masker: prepared.masker,
                request: shown, status: .cancelled, reproduce: command ?? reproduce(prepared))
        }
        let collected = collector.finish()
        let body = Self.body(of: collected.messages, streaming: call.method.serverStreaming)
        var response =
            result.response
            ?? HTTPResponse(
                statusCode: 0, httpVersion: "2", headers: HTTPHeaders(), body: Data(), effectiveURL: shown.url)
        response.reasonPhrase = result.status.codeName
        var fields = result.headers
        for field in result.trailers { fields.add(name: field.name, value: field.value) }
        let bodyText = Data(JSONWriter.string(body).utf8)
        // A call that answered nothing shows no body rather than `null`.
        var recorded = Self.response(
            response, headers: fields, body: collected.messages.isEmpty && body == .null ? Data() : bodyText)
        recorded.statusCode = response.statusCode

        var draft = StepDraft(index: index, location: step.location)
        draft.tokenExchanges = prepared.tokenExchanges
        var status = TestStatus.passed
        var failures: [AssertionFailure] = []
        var checks: [AssertionCheck] = []
        var captured: [String] = []
        var untilHeld = false
        var next = prepared.context
        let stoppedByEvents = result.failure?.kind == .stoppedByReader && collected.problem == nil
        let code = stoppedByEvents ? 0 : result.status.rawCode
        let expectation = step.expect.grpc
        let accepted = expectation?.accepts(code: code) ?? (code == 0)
        // Coverage counts every call that was sent, with the status the step judged (a stream its `events` ended
        // counts as OK).
        if let coverage = executor.grpcCoverage {
            coverage.record(
                call.method, code: code, suiteFile: runtime.suite.file,
                server: runtime.suite.grpcSchema == nil
                    ? GRPCCoverageRecorder.serverName(of: call.description.baseURL) : nil)
        }
        if let problem = collected.problem {
            draft.error = TestError(kind: .request, message: problem, location: spec.location)
            status = .errored
        } else if !accepted, let failure = result.failure, !stoppedByEvents {
            draft.error = TestError(
                kind: .request, message: "gRPC call failed (\(failure.status.codeName)): \(failure.description)",
                location: spec.location)
            status = Task.isCancelled ? .cancelled : .errored
        } else if !accepted {
            let expected = expectation.map { Self.names($0.codes) } ?? "OK"
            var text: MessageText = "expected gRPC status \(expected), got \(result.status.codeName)"
            if !result.status.message.isEmpty {
                text = "\(text): \(quoting: result.status.message, limit: 300)"
            }
            failures.append(
                AssertionFailure(
                    location: expectation?.location ?? spec.location, subject: "grpc status", text: text,
                    expected: expected, actual: result.status.codeName))
        } else {
            let listsChecks = executor.resultDetail == .everyStep
            if let expectation, !expectation.statusChecks.isEmpty || !expectation.trailers.isEmpty {
                var trailers = result.isTrailersOnly ? result.headers : result.trailers
                trailers.add(name: "Content-Type", value: "application/json")
                let statusResponse = Self.response(
                    response, headers: trailers,
                    body: Data(JSONWriter.string(GRPCStatusDocument.json(of: result.status, schema: call.schema)).utf8))
                var statusBody = ResponseBody(statusResponse, chain: runtime.decoders)
                let made = executor.checker.check(
                    Expectations(assertions: expectation.statusChecks + expectation.trailers),
                    stepLocation: step.location, body: &statusBody, context: prepared.context,
                    masker: prepared.masker, listsChecks: listsChecks)
                failures += made.failures
                checks += made.checks
            }
            var headers = HTTPHeaders()
            for field in result.headers where field.name.lowercased() != "content-type" {
                headers.add(name: field.name, value: field.value)
            }
            headers.add(name: "Content-Type", value: "application/json")
            let messageResponse = Self.response(response, headers: headers, body: bodyText)
            var messageBody = ResponseBody(
                messageResponse, chain: runtime.decoders,
                removesKeysWithNullValues: runtime.suite.responseDecoding.removesKeysWithNullValues)
            if let until {
                let held = executor.checker.check(
                    until, stepLocation: step.location, body: &messageBody, context: prepared.context,
                    masker: prepared.masker, requireSuccessStatus: false, listsChecks: listsChecks)
                untilHeld = held.failures.isEmpty
                failures += held.failures
            }
            if failures.isEmpty {
                var expect = step.expect
                expect.grpc = nil
                expect.events = nil
                let made = executor.checker.check(
                    expect, stepLocation: step.location, body: &messageBody, context: prepared.context,
                    masker: prepared.masker, decoding: runtime.suite.responseDecoding, listsChecks: listsChecks)
                failures += made.failures
                checks += made.checks
            }
            let streamOutcome = stream?.finish(context: prepared.context)
            if let streamOutcome { failures += streamOutcome.failures }
            if failures.isEmpty {
                let captures = step.captures.filter { !EventStreamChecker.isEventCapture($0) }
                let capture = StepCapture(checker: executor.checker, captures: captures)
                    .run(&messageBody, context: streamOutcome?.context ?? prepared.context, masker: prepared.masker)
                next = capture.context
                captured = (streamOutcome?.captured ?? []) + capture.captured
                failures += capture.failures
            }
        }
        if status == .passed, !failures.isEmpty { status = .failed }
        // The grpcurl command of the call, for a step that did not pass or when the run records every request
        // (`--curl`), as a request step's curl command.
        if status != .passed || command != nil { draft.reproduce = command ?? reproduce(prepared) }
        draft.failures = failures
        draft.checks = checks
        draft.captured = captured
        draft.exchange = ExchangeRecorder.record(
            shown, recorded, limit: executor.options.bodyPreviewLimit, masker: prepared.masker,
            detail: executor.resultDetail.forStep(passed: status == .passed))
        draft.exchange?.startedAt = sentAt
        return StepAttempt.Outcome(
            draft: draft, status: status, untilHeld: untilHeld, sealer: prepared.masker,
            context: status == .passed ? next : context)
    }

    /// The attempt ended before a call's checks with `error`.
    private func ended(
        _ error: TestError, context: TemplateContext, masker: SecretMasker, request: HTTPRequest? = nil,
        status: TestStatus = .errored, reproduce: ReproduceCommand? = nil
    ) -> StepAttempt.Outcome {
        var draft = StepDraft(index: index, location: step.location, error: error)
        draft.reproduce = reproduce
        if let request {
            draft.exchange = ExchangeRecorder.record(
                request, nil, limit: executor.options.bodyPreviewLimit, masker: masker)
        }
        return StepAttempt.Outcome(draft: draft, status: status, sealer: masker, context: context)
    }

    // MARK: - Shown as JSON

    /// The HTTP response of the call (its timings, address, certificates) with `headers` and a JSON `body`, kept
    /// whole: what the checks and the exchange read. Its reason phrase is the gRPC status's name.
    static func response(_ response: HTTPResponse, headers: HTTPHeaders, body: Data) -> HTTPResponse {
        var copy = response
        copy.statusCode = 200
        copy.headers = headers
        copy.body = body
        copy.bodySize = Int64(body.count)
        copy.bodyIsComplete = true
        copy.bodyDigests = [:]
        return copy
    }

    /// The response as the checks read it: the message of a method that answers once (null when none came), the
    /// array of messages of a server stream.
    static func body(of messages: [JSONValue], streaming: Bool) -> JSONValue {
        streaming ? .array(messages) : (messages.first ?? .null)
    }

    /// The request messages as the exchange shows them: one message, or the list of a stream.
    static func text(of messages: [JSONValue], asList: Bool) -> String {
        JSONWriter.string(asList ? .array(messages) : (messages.first ?? .object(JSONObject())))
    }

    /// `OK`, `NOT_FOUND or UNAVAILABLE`: the names of status codes.
    static func names(_ codes: [Int]) -> String {
        if codes.isEmpty { return "OK" }
        return codes.map { GRPCStatus(rawCode: $0).codeName }.joined(separator: " or ")
    }
}

// MARK: - The response messages

/// Decodes each response message as it arrives (on the loop thread): kept as JSON for the checks, and handed to the
/// step's `events` checks as a JSON line would be. A message that does not decode stops the call.
final class GRPCResponseCollector: Sendable {
    /// What was collected.
    struct Collected {
        var messages: [JSONValue] = []
        /// How many messages decoded (kept or not).
        var received = 0
        /// Why a message did not decode.
        var problem: String?
    }

    private let schema: ProtoSchema
    private let type: String
    private let stream: EventStreamChecker?
    /// How many messages are kept.
    private let keeps: Int
    private let state = Mutex(Collected())

    init(schema: ProtoSchema, type: String, stream: EventStreamChecker?, keeps: Int = .max) {
        self.schema = schema
        self.type = type
        self.stream = stream
        self.keeps = keeps
    }

    /// One message; false stops the call.
    @Sendable func receive(_ bytes: Data) -> Bool {
        let json: JSONValue
        do throws(ProtobufError) {
            json = try schema.decode(Array(bytes), as: type)
        } catch {
            state.withLock { collected in
                let position = collected.received + 1
                collected.problem = "response message \(position) does not decode as \(type): \(error.description)"
            }
            return false
        }
        state.withLock { collected in
            collected.received += 1
            if collected.messages.count < keeps { collected.messages.append(json) }
        }
        guard let stream else { return true }
        return stream.receive(event: ServerSentEvent(data: JSONWriter.string(json)))
    }

    /// What was collected, once the call has ended.
    func finish() -> Collected {
        state.withLock { $0 }
    }
}

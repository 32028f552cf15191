import APITestHTTP
package import APITestJSON
package import APITestOpenAPI
import APITestRunner
import Foundation

/// Runs `apitest fuzz`: generates the cases of each phase, sends them through the HTTP layer's ``SessionManager``
/// (``FuzzConfiguration/concurrency`` at once), judges each request with the contract and checks each response.
///
/// Cases are made before anything is sent, each operation and phase from its own seeded stream, and outcomes are
/// kept in the cases' order: the same seed sends the same requests and reports them in the same order, whatever
/// order the responses come back in.
package final class FuzzEngine: Sendable {
    /// The document as a description (operations, schemas) and as a contract (checks).
    package let description: OpenAPIDescription
    package let contract: OpenAPIContract
    /// The root file of the document as read (for `links`), when given.
    package let document: JSONValue?
    /// The run's settings.
    package let configuration: FuzzConfiguration
    /// The checks.
    let evaluator: CheckEvaluator
    /// The cases' generator.
    package let generator: CaseGenerator
    /// The session every request goes through.
    let session: SessionManager

    /// The most bytes of a response body kept.
    package static let bodyLimit = 1 << 20

    /// An engine for one run.
    package init(
        description: OpenAPIDescription, contract: OpenAPIContract, document: JSONValue?,
        configuration: FuzzConfiguration
    ) {
        self.description = description
        self.contract = contract
        self.document = document
        self.configuration = configuration
        self.evaluator = CheckEvaluator(contract: contract, checks: configuration.checks)
        self.generator = CaseGenerator(
            description: description, seed: configuration.seed, maxExamples: configuration.maxExamples)
        var session =
            configuration.transfer?.session
            ?? SessionConfiguration(
                maxConnections: max(configuration.concurrency, 1),
                timeout: configuration.timeout ?? .seconds(30),
                connectTimeout: configuration.connectTimeout ?? .seconds(10))
        session.maxBodySize = 64 * 1024 * 1024
        self.session = SessionManager(configuration: session)
    }

    deinit { session.shutdown() }

    // MARK: - Cases

    /// Every case of the generated phases, in the order they are sent: phase by phase, operation by operation.
    package func generatedCases() -> [FuzzCase] {
        var cases: [FuzzCase] = []
        for phase in configuration.phases where phase != .stateful {
            for index in description.operations.indices {
                cases += generator.cases(for: index, phase: phase)
            }
        }
        return cases
    }

    /// The request `fuzzCase` sends: the command's headers after its own, without the credentials when it goes
    /// without them (and with a made-up one when it says so).
    package func request(for fuzzCase: FuzzCase) -> BuiltRequest {
        let operation = description.operations[fuzzCase.operation]
        var fuzzCase = fuzzCase
        var headers = configuration.headers
        if case .withoutCredentials(let bogus) = fuzzCase.purpose {
            let carriers = SecurityFacts.carriers(of: operation, schemes: description.securitySchemes)
            headers.removeAll {
                carriers.headers.contains($0.name.lowercased())
                    || (!carriers.cookies.isEmpty && $0.name.lowercased() == "cookie")
            }
            fuzzCase.parameters.removeAll {
                ($0.location == .query && carriers.query.contains($0.name))
                    || ($0.location == .cookie && carriers.cookies.contains($0.name))
                    || ($0.location == .header && carriers.headers.contains($0.name.lowercased()))
            }
            if bogus,
                let credential = SecurityFacts.bogusCredential(for: operation, schemes: description.securitySchemes)
            {
                fuzzCase.parameters.append(
                    FuzzCase.Parameter(
                        name: credential.name, location: credential.location, style: "form", explode: true,
                        contentType: nil, isRequired: false, value: .string(credential.value)))
            }
        }
        // A parameter the command's headers give is sent once, as the command gives it.
        let given = Set(headers.map { $0.name.lowercased() })
        fuzzCase.parameters.removeAll { $0.location == .header && given.contains($0.name.lowercased()) }
        return fuzzCase.build(pathTemplate: operation.pathTemplate, extraHeaders: headers)
    }

    /// What the contract makes of `request` for `fuzzCase`: the generator's intent when the contract agrees,
    /// ``FuzzCase/Intent/unknown`` when it does not (a value the generator meant valid that breaks a `pattern`,
    /// a path value that routes to another operation).
    package func judge(_ fuzzCase: FuzzCase, _ request: BuiltRequest) -> FuzzCase.Intent {
        judgement(fuzzCase, request).intent
    }

    /// Whether `request` routes to `fuzzCase`'s operation under the document's first server.
    package func routes(_ fuzzCase: FuzzCase, _ request: BuiltRequest) -> Bool {
        let operation = description.operations[fuzzCase.operation]
        guard request.method == operation.method else { return false }
        let (routedTo, _) = description.checkRequest(
            to: operation, pathAndQuery: request.pathAndQuery, headers: request.headerPairs, body: request.body)
        return routedTo == nil
    }

    /// ``judge(_:_:)``, and whether the request routes to the case's operation.
    func judgement(_ fuzzCase: FuzzCase, _ request: BuiltRequest) -> (intent: FuzzCase.Intent, routes: Bool) {
        let intent = judgeRouted(fuzzCase, request)
        return (intent.0, intent.1)
    }

    private func judgeRouted(_ fuzzCase: FuzzCase, _ request: BuiltRequest) -> (FuzzCase.Intent, Bool) {
        let operation = description.operations[fuzzCase.operation]
        guard request.method == operation.method, fuzzCase.pathOverride == nil else { return (.unknown, false) }
        let (routedTo, violations) = description.checkRequest(
            to: operation, pathAndQuery: request.pathAndQuery, headers: request.headerPairs, body: request.body)
        if routedTo != nil { return (.unknown, false) }
        return (intent(fuzzCase, violations: violations), true)
    }

    /// The generator's intent checked against the contract's `violations` of the request.
    private func intent(_ fuzzCase: FuzzCase, violations: [ContractViolation]) -> FuzzCase.Intent {
        // An XML body made from generated values is not judged (XML has no types; the element names are guessed):
        // only a documented example is taken for valid.
        if case .xml = fuzzCase.body?.encoding, fuzzCase.phase != .examples, fuzzCase.purpose == .data {
            return .unknown
        }
        switch fuzzCase.intent {
        case .valid:
            return violations.isEmpty ? .valid : .unknown
        case .invalid(let keyword, let place):
            if !violations.isEmpty {
                // The keyword the contract finds broken, which is the one meant when it is among them (a smaller
                // case of a shrunk finding may break another one instead).
                let found = violations.map(Self.keyword(of:))
                if found.contains(keyword) { return fuzzCase.intent }
                return .invalid(keyword: found[0], place: Self.place(of: violations[0]))
            }
            // The contract does not read form bodies: the generator's word for the keywords a form keeps.
            let formKeywords: Set<String> = [
                "required", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                "maxLength", "additionalProperties", "minItems", "maxItems",
            ]
            if fuzzCase.body?.encoding.keepsOnlyText == true, place.hasPrefix("body"), formKeywords.contains(keyword) {
                return fuzzCase.intent
            }
            return .unknown
        case .unknown:
            return .unknown
        }
    }

    /// The keyword a request violation breaks: the schema's keyword, `required` for something missing, `json`
    /// for a body that is not JSON, `content-type` for an undeclared media type.
    static func keyword(of violation: ContractViolation) -> String {
        switch violation.kind {
        case .missingParameter, .missingBody: "required"
        case .invalidJSON: "json"
        case .missingContentType, .undeclaredContentType: "content-type"
        case .schemaMismatch: violation.keyword ?? "schema"
        case .undeclaredStatus, .missingHeader: "schema"
        }
    }

    /// Where a request violation is (`query limit`, `body /name`).
    static func place(of violation: ContractViolation) -> String {
        switch violation.kind {
        case .missingParameter(let name, let location): return "\(location.rawValue) \(name)"
        case .missingBody, .invalidJSON: return "body"
        default:
            guard let path = violation.instancePath, !path.isEmpty else { return "body" }
            return path.hasPrefix("/") ? "body " + path : path
        }
    }

    // MARK: - Sending

    /// Sends `request` and reads the response (at most ``bodyLimit`` bytes of body).
    package func send(_ request: BuiltRequest) async -> (FuzzResponse?, String?) {
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        var http = HTTPRequest(
            method: request.method, url: base + request.pathAndQuery,
            headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }),
            body: request.body.isEmpty ? .none : .data(Data(request.body)), timeout: configuration.timeout,
            connectTimeout: configuration.connectTimeout, followRedirects: false)
        let start = ContinuousClock.now
        do {
            try configuration.transfer?.apply(to: &http)
        } catch {
            return (nil, "\(error)")
        }
        do {
            let response = try await session.perform(http)
            let body = [UInt8](response.body.prefix(Self.bodyLimit))
            return (
                FuzzResponse(
                    status: response.statusCode,
                    headers: response.headers.map { BuiltRequest.Header($0.name, $0.value) }, body: body,
                    elapsed: ContinuousClock.now - start),
                nil
            )
        } catch let error as HTTPError {
            return (nil, error.description)
        } catch {
            return (nil, "cancelled")
        }
    }

    /// Sends `fuzzCase` and checks what comes back.
    package func run(_ fuzzCase: FuzzCase) async -> CaseOutcome {
        let request = request(for: fuzzCase)
        let (intent, routed) = judgement(fuzzCase, request)
        var outcome = CaseOutcome(
            fuzzCase: fuzzCase, request: request, intent: intent, response: nil, transportError: nil)
        outcome.routes = routed
        if configuration.dryRun { return outcome }
        let (response, error) = await send(request)
        outcome.response = response
        outcome.transportError = error
        if let response {
            outcome.failures = evaluator.evaluate(
                fuzzCase, operation: description.operations[fuzzCase.operation].operation, intent: intent,
                routes: routed, response: response)
        }
        return outcome
    }

    /// Runs `cases`, ``FuzzConfiguration/concurrency`` at once, until `deadline`; the outcomes in the cases' order
    /// (nil for a case not started in time).
    package func run(_ cases: [FuzzCase], until deadline: ContinuousClock.Instant?) async -> [CaseOutcome?] {
        var outcomes = [CaseOutcome?](repeating: nil, count: cases.count)
        let width = max(1, configuration.concurrency)
        await withTaskGroup(of: (Int, CaseOutcome).self) { group in
            var next = 0
            func startNext() -> Bool {
                guard next < cases.count else { return false }
                if let deadline, ContinuousClock.now >= deadline { return false }
                let index = next
                let fuzzCase = cases[index]
                next += 1
                group.addTask { (index, await self.run(fuzzCase)) }
                return true
            }
            for _ in 0..<width where !startNext() { break }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                _ = startNext()
            }
        }
        return outcomes
    }
}

import APITestHTTP
import APITestJSON
import APITestOpenAPI
package import APITestResults
import APITestSecrets
import APITestSupport

// MARK: - Masking

extension FuzzEngine {
    /// The masker of everything shown: the credentials of the command's headers (found as the runner finds them) and
    /// the values of headers the document's security schemes name.
    var masker: SecretMasker {
        let request = HTTPRequest(
            url: configuration.baseURL, headers: HTTPHeaders(configuration.headers.map { ($0.name, $0.value) }))
        var secrets = SecretMasker.credentials(of: request)
        let named = Set(
            description.securitySchemes.values.compactMap { $0.location == "header" ? $0.name?.lowercased() : nil })
        secrets += configuration.headers.filter { named.contains($0.name.lowercased()) }.map(\.value)
        return SecretMasker(secrets: secrets.filter { $0.count >= SecretMasker.shortestCredential })
    }

    /// `text` with the run's secrets masked.
    package func mask(_ text: String) -> String { masker.mask(text) }

    /// The console summary of `run`.
    package func summary(of run: FuzzRun) -> FuzzSummary {
        let masker = self.masker
        var summary = FuzzSummary(run: run, description: description, checks: configuration.checks) {
            masker.mask($0)
        }
        summary.unsupportedPatterns = unsupportedPatterns()
        return summary
    }
}

// MARK: - The result model

extension FuzzEngine {
    /// `run` as the reporters take it: a test per operation and check (passed, failed with a step per finding, or
    /// skipped when no case of the operation was for that check), every text sealed by the run's masker.
    package func testResults(
        of run: FuzzRun, specPath: String
    ) -> (plan: RunPlan, tests: [TestResult], summary: RunSummary) {
        let masker = self.masker
        var tests: [TestResult] = []
        var summary = RunSummary(duration: run.duration)
        for (index, operation) in description.operations.enumerated() {
            let outcomes = run.outcomes.filter { $0.fuzzCase.operation == index }
            for check in configuration.checks {
                let findings = run.findings.filter { $0.operation == index && $0.check == check }
                let applies = outcomes.contains { Self.applies(check, to: $0) }
                var steps: [StepResult] = []
                for (number, finding) in findings.enumerated() {
                    steps.append(step(number, finding, operation: operation).sealed(by: FuzzSealer(masker: masker)))
                }
                let status: TestStatus = !findings.isEmpty ? .failed : applies ? .passed : .skipped
                let result = TestResult(
                    suiteName: "fuzz", suiteFile: specPath, name: "\(operation.displayName) › \(check.rawValue)",
                    location: operation.operation.location, status: status, duration: .zero, steps: steps,
                    reason: status == .skipped ? "no case of this operation was for \(check.rawValue)" : nil)
                summary.record(status)
                tests.append(result)
            }
        }
        let plan = RunPlan(
            suites: [RunPlan.SuiteEntry(name: "fuzz", file: specPath, tests: tests.map(\.name))],
            jobs: configuration.concurrency)
        return (plan, tests, summary)
    }

    /// Whether `check` judged `outcome`.
    static func applies(_ check: FuzzCheck, to outcome: CaseOutcome) -> Bool {
        guard outcome.response != nil else { return false }
        switch check {
        case .notAServerError: return true
        case .statusCodeConformance, .contentTypeConformance, .responseSchemaConformance, .responseHeadersConformance:
            if case .unsupportedMethod = outcome.fuzzCase.purpose { return false }
            return true
        case .negativeDataRejection:
            if case .invalid = outcome.intent, case .data = outcome.fuzzCase.purpose { return true }
            return false
        case .positiveDataAcceptance:
            if case .valid = outcome.intent, case .data = outcome.fuzzCase.purpose { return true }
            return false
        case .useAfterFree: return outcome.fuzzCase.purpose == .stateful(.readAfterDelete)
        case .ensureResourceAvailability: return outcome.fuzzCase.purpose == .stateful(.readAfterCreate)
        case .unsupportedMethod: return outcome.fuzzCase.purpose == .unsupportedMethod
        case .ignoredAuth:
            if case .withoutCredentials = outcome.fuzzCase.purpose { return true }
            return false
        }
    }

    /// The step that reports `finding`: its (shrunk) request and response and the check's failure.
    private func step(_ number: Int, _ finding: FuzzFinding, operation: DescribedOperation) -> StepDraft {
        let outcome = finding.minimal
        var exchange = ExchangeDraft(
            method: outcome.request.method, url: url(outcome.request),
            requestHeaders: outcome.request.headers.map { Exchange.Header(name: $0.name, value: $0.value) },
            bodyPreviewLimit: 4096)
        if !outcome.request.body.isEmpty {
            let text = String(decoding: outcome.request.body, as: UTF8.self)
            exchange.requestBody = .text(
                text, readBytes: outcome.request.body.count, totalSize: outcome.request.body.count)
            exchange.requestBodySize = Int64(outcome.request.body.count)
        }
        if let response = outcome.response {
            exchange.statusCode = response.status
            exchange.responseHeaders = response.headers.map { Exchange.Header(name: $0.name, value: $0.value) }
            exchange.responseBody = .text(
                String(decoding: response.body, as: UTF8.self), readBytes: response.body.count,
                totalSize: response.body.count)
            exchange.responseBodySize = response.body.count
        }
        let failure = AssertionFailure(
            location: operation.operation.location, subject: finding.check.rawValue,
            text: MessageText(finding.message), expected: finding.check.summary,
            actual: outcome.response.map { "status \($0.status)" })
        var draft = StepDraft(
            index: number, location: operation.operation.location, exchange: exchange, failures: [failure])
        draft.label = MessageText("\(finding.signature) (\(outcome.fuzzCase.label))")
        draft.reproduce = curl(outcome.request)
        return draft
    }

    /// The absolute URL of `request`.
    package func url(_ request: BuiltRequest) -> String {
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + request.pathAndQuery
    }

    /// `request` as a curl command: every word quoted for a POSIX shell by ``ShellWord``; a header that carries a
    /// credential is a reference to an environment variable (`"${AUTHORIZATION}"`), never its value.
    package func curl(_ request: BuiltRequest) -> ReproduceCommand {
        let masker = self.masker
        var words: [ShellWord] = ["curl", "-sS"]
        if request.method != "GET" || !request.body.isEmpty {
            words += ["-X", ShellWord(request.method)]
        }
        words.append(ShellWord(url(request)))
        var notes: [String] = []
        for header in request.headers {
            words.append("-H")
            if masker.containsSecret(header.value) {
                let variable = Self.variableName(header.name)
                words.append(ShellWord([.literal(Array("\(header.name): ".utf8)), .variable(variable)]))
                notes.append("the \(header.name) header is read from the environment variable \(variable)")
            } else {
                words.append(ShellWord("\(header.name): \(header.value)"))
            }
        }
        if !request.body.isEmpty {
            words += ["--data-binary", ShellWord([.literal(request.body)])]
        }
        return ReproduceCommand(words: words.map { masker.mask($0.quoted(.script)) }, notes: notes)
    }

    /// An environment variable's name for header `name` (`X-Api-Key` → `X_API_KEY`).
    static func variableName(_ name: String) -> String {
        let mapped = name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        let text = String(mapped)
        return ShellWord.isVariableName(text) ? text : "APITEST_CREDENTIAL"
    }
}

/// The run's masker as the results' sealing point takes it.
struct FuzzSealer: SecretSealing {
    /// The masker.
    let masker: SecretMasker

    func mask(_ text: String) -> String { masker.mask(text) }

    func maskHeader(name: String, value: String) -> String { masker.maskHeader(name: name, value: value) }
}

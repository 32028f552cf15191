package import APITestHTTP
package import APITestJSON
package import APITestJSONSchema
package import APITestOpenAPI
package import APITestResults
package import APITestSuite
package import APITestSupport
package import Foundation

/// Holds each response of a suite that names an OpenAPI document to that contract: the operation it answers, its
/// status, content type, headers and body; and, as warnings (failures when the contract is `strict`), the request
/// that was sent and a request that matches no operation (once per method and path in the run). Counts coverage as
/// it goes.
package struct ContractChecker: Sendable {
    /// The run's coverage counts, shared by every test.
    package let coverage: ContractCoverageRecorder

    /// A checker counting coverage in `coverage`.
    package init(coverage: ContractCoverageRecorder) {
        self.coverage = coverage
    }

    /// What the contract says of one exchange: failures of the step and warnings.
    package struct Outcome {
        /// Failures of the step.
        package var failures: [AssertionFailure] = []
        /// Warnings (failures when the contract is `strict`).
        package var warnings: [AssertionFailure] = []
    }

    /// Checks `response` to `request` against `suiteContract`; `body` is the response body as the step decoded it.
    package func check(
        _ request: HTTPRequest, _ response: HTTPResponse, body: any ContractBody, against suiteContract: SuiteContract,
        stepLocation: SourceLocation
    ) -> Outcome {
        // Read in place: a copy of the contract retains each of its tables.
        let isStrict = suiteContract.setting.strict
        var outcome = Outcome()
        // The fields read in place, not copied as pairs: the checks read one or two of them.
        let sent = ContractRequest(
            method: request.method, url: request.url, fields: Fields(headers: request.headers),
            body: Self.requestBody(request.body))
        let received = ContractResponse(
            status: response.statusCode, fields: Fields(headers: response.headers), body: body,
            requestMethod: request.method)
        var checked = suiteContract.contract.checkExchange(sent, received, readsPathParameters: false)
        if response.redirectCount > 0, response.effectiveURL != request.url {
            // A followed redirect: the response is the final URL's. The request is held to the operation it was
            // sent to; the response to the final URL's operation, asked with the same method (307, 308) or, when
            // there is none for it, with GET (what libcurl sends after 301, 302 and 303).
            let final = ContractRequest(method: request.method, url: response.effectiveURL, headers: [])
            var finalCheck = suiteContract.contract.checkExchange(final, received, readsPathParameters: false)
            if case .noOperation = finalCheck.match, request.method != "GET" {
                finalCheck = suiteContract.contract.checkExchange(
                    ContractRequest(method: "GET", url: response.effectiveURL, headers: []), received,
                    readsPathParameters: false)
            }
            let requestViolations = checked.requestViolations
            checked = finalCheck
            checked.requestViolations = requestViolations
        }
        switch checked.match {
        case .ignored, .outsideServers:
            return outcome
        case .noOperation(let method, let path):
            let file = suiteContract.displayPath
            guard coverage.recordUnmatched(file: file, method: method, path: path) else { return outcome }
            let problem = AssertionFailure(
                location: stepLocation, subject: "openapi", message: "\(method) \(path) matches no operation in \(file)"
            )
            if isStrict { outcome.failures.append(problem) } else { outcome.warnings.append(problem) }
            return outcome
        case .operation(let operation, _):
            let responseCheck = checked.response ?? ContractResponseCheck(responseKey: nil, violations: [])
            coverage.recordCall(
                file: suiteContract.displayPath, operation: operation, responseKey: responseCheck.responseKey)
            // Lists appended only when there is something in them: almost every exchange holds.
            if !responseCheck.violations.isEmpty {
                outcome.failures += responseCheck.violations.map {
                    failure($0, status: response.statusCode, at: stepLocation)
                }
            }
            guard !checked.requestViolations.isEmpty else { return outcome }
            let requestProblems = checked.requestViolations.map { failure($0, status: nil, at: stepLocation) }
            if isStrict { outcome.failures += requestProblems } else { outcome.warnings += requestProblems }
            return outcome
        }
    }

    /// A violation as a failed check: the operation, the response entry used, what is wrong, and where the spec
    /// declares it.
    private func failure(_ violation: ContractViolation, status: Int?, at location: SourceLocation) -> AssertionFailure
    {
        let operation = violation.operation
        var context = operation.operationId.map { "\($0) (\(operation.methodAndPath))" } ?? operation.methodAndPath
        if let status {
            context += " → \(status)"
            if let key = violation.responseKey, key != String(status) { context += " (\(key))" }
        } else {
            context += " request"
        }
        var message = "\(context): \(violation.message)"
        if let declared = violation.specLocation {
            message += "; declared at \(FilePaths.display(declared.file)):\(declared.line):\(declared.column)"
        }
        return AssertionFailure(location: location, subject: "openapi", message: message)
    }

    /// A request body as the contract reads it: bytes sent from memory; a file or a multipart form is not checked
    /// against a schema (it is only known to be there).
    private static func requestBody(_ body: HTTPRequest.Body) -> any ContractBody {
        switch body {
        case .none: return ContractDataBody.empty
        case .data(let data): return ContractDataBody(Array(data))
        case .file, .multipart: return PresentBody()
        }
    }

    /// A request's or a response's header fields as the contract reads them.
    private struct Fields: ContractHeaderFields {
        let headers: HTTPHeaders

        func values(named name: String) -> [String] { headers.values(for: name) }
        func first(named name: String) -> String? { headers[name] }
        var pairs: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
    }

    /// A body that is there but not read: streamed from a file, or multipart. Its schema is not checked (it passes):
    /// apitest does not read a file a second time to check what it sent.
    private struct PresentBody: ContractBody {
        var isEmpty: Bool { false }
        func validate(against schema: JSONSchema) -> JSONSchemaValidationResult? {
            JSONSchemaValidationResult(isValid: true, errors: [])
        }
    }

    /// A response body whose checks already read it into a tape of every member: validated in place, not parsed
    /// again.
    package struct ParsedResponse: ContractBody {
        /// The body's tape, as the checks read it.
        package let tape: JSONTape
        /// Whether the body is empty.
        package let isEmpty: Bool

        /// A parsed body: its `tape`, and whether it `isEmpty`.
        package init(tape: JSONTape, isEmpty: Bool) {
            self.tape = tape
            self.isEmpty = isEmpty
        }

        package func validate(against schema: JSONSchema) -> JSONSchemaValidationResult? {
            schema.validate(tape, maximumErrors: 10)
        }
    }

    /// A response body as received (never with null members dropped: the contract is about what the server sent),
    /// read as a JSON tape in place when a schema is checked.
    package struct ResponseBytes: ContractBody {
        /// The body's bytes.
        package let data: Data

        /// The body received as `data`.
        package init(data: Data) {
            self.data = data
        }

        /// Whether the body is empty.
        package var isEmpty: Bool { data.isEmpty }

        /// The body read as a JSON tape in place, validated against `schema`; nil when it is not JSON.
        package func validate(against schema: JSONSchema) -> JSONSchemaValidationResult? {
            guard let tape = try? JSONTape(parsing: BodyText(data)) else { return nil }
            return schema.validate(tape, maximumErrors: 10)
        }
    }
}

import APITestJSON
import APITestOpenAPI
import APITestSuiteWriting

/// Plans the test of one operation: the status to expect, the credentials, a value for every required parameter
/// and for the body, and then the request checked against the contract as the runner will check it; a value that
/// the contract rejects is replaced by the next candidate (the document's examples first, then generated values).
/// What cannot be built honestly is skipped with the reason.
///
/// ```swift
/// let planner = OperationPlanner(description: description)
/// switch planner.plan(operation) {
/// case .test(let test, _): print(test.request.url)     // pets/1
/// case .skipped(let reason): print(reason)              // the required body is multipart/form-data
/// }
/// ```
struct OperationPlanner {
    /// The document.
    let description: OpenAPIDescription
    /// Builds values for schemas.
    let generator: ExampleValueGenerator

    /// A planner for the operations of `description`.
    init(description: OpenAPIDescription) {
        self.description = description
        self.generator = ExampleValueGenerator(description: description)
    }

    /// How many requests are checked against the contract before an operation is given up.
    static let maximumAttempts = 64

    /// A part of the request whose value is chosen among candidates.
    struct Part {
        /// What the value is for.
        enum Kind {
            case parameter(DescribedParameter)
            case body(DescribedMediaType, BodyEncoding)
        }

        var kind: Kind
        /// The values to try, best first.
        var candidates: [ExampleCandidate]
        /// `path parameter 'id'`, `the request body (application/json)`, for messages.
        var name: String
    }

    /// How a body is written.
    enum BodyEncoding {
        /// `json:` (`application/json`, or a wildcard that covers it).
        case json
        /// `body:` with the JSON text and the media type as `contentType` (`application/merge-patch+json`).
        case jsonText(String)
        /// `form:`.
        case form
        /// `body:` with the text and the media type as `contentType`.
        case text(String)

        /// Whether the body is JSON.
        var isJSON: Bool {
            switch self {
            case .json, .jsonText: true
            case .form, .text: false
            }
        }
    }

    // MARK: - Planning

    /// The test of `operation`, or why it is skipped.
    func plan(_ operation: DescribedOperation) -> OperationPlan {
        guard let expected = Self.expectedStatus(operation.responseKeys) else {
            let declared = operation.responseKeys.joined(separator: ", ")
            return .skipped(reason: "it declares no 2XX or 3XX response (\(declared))")
        }
        let credentials: Credentials
        switch Credentials.make(for: operation, schemes: description.securitySchemes) {
        case .success(let made): credentials = made
        case .failure(let failure): return .skipped(reason: failure.reason)
        }
        var parts: [Part] = []
        for parameter in operation.parameters where parameter.isRequired || parameter.location == .path {
            guard !credentials.covers(parameter) else { continue }
            switch parameterPart(parameter) {
            case .success(let part): parts.append(part)
            case .failure(let failure): return .skipped(reason: failure.reason)
            }
        }
        for name in Self.templateParameters(operation.pathTemplate)
        where !operation.parameters.contains(where: { $0.location == .path && $0.name == name }) {
            return .skipped(reason: "its path parameter '\(name)' is not declared")
        }
        // An optional body is sent with the methods that usually carry one.
        if let body = operation.requestBody, body.isRequired || ["POST", "PUT", "PATCH"].contains(operation.method) {
            switch bodyPart(body) {
            case .success(let part?): parts.append(part)
            case .success(nil): break
            case .failure(let failure): return .skipped(reason: failure.reason)
            }
        }
        return search(operation, parts: parts, credentials: credentials, expected: expected)
    }

    /// Tries the candidates of each part until the contract accepts the request.
    private func search(
        _ operation: DescribedOperation, parts: [Part], credentials: Credentials, expected: ExpectedStatus
    ) -> OperationPlan {
        var choices = Array(repeating: 0, count: parts.count)
        var rejections: [Int: String] = [:]
        for _ in 0..<Self.maximumAttempts {
            let assembled = assemble(operation, parts: parts, choices: choices, credentials: credentials)
            let check = description.checkRequest(
                to: operation, pathAndQuery: assembled.pathAndQuery, headers: assembled.wireHeaders,
                body: assembled.bodyBytes)
            if let other = check.routedTo {
                return .skipped(reason: "the request built for it is routed to \(other) instead")
            }
            if check.violations.isEmpty {
                var request = assembled.request
                request.followRedirects = expected.followRedirects
                var notes = credentials.notes
                if let note = expected.note { notes.append(note) }
                for (index, part) in parts.enumerated() {
                    guard let rejection = rejections[index] else { continue }
                    notes.append("the document's example of the \(part.name) does not match its schema (\(rejection))")
                }
                var test = SuiteDocument.Test(name: operation.displayName, request: request)
                // The summary's first line is the comment above the test; the remarks are notes under it.
                if let summary = operation.summary?.split(separator: "\n").first, !summary.isEmpty {
                    test.comments = [String(summary)]
                }
                test.notes = notes.map { SuiteDocument.Note(location: "", text: $0) }
                test.expect.status = [expected.status]
                return .test(test, environment: credentials.environment)
            }
            var advanced: Set<Int> = []
            for violation in check.violations {
                guard let index = parts.indices.first(where: { Self.violation(violation, concerns: parts[$0]) }) else {
                    return .skipped(reason: "the contract rejects the request built for it: \(violation.message)")
                }
                guard advanced.insert(index).inserted else { continue }
                if parts[index].candidates[choices[index]].isFromDocument, rejections[index] == nil {
                    rejections[index] = violation.message
                }
                choices[index] += 1
                guard choices[index] < parts[index].candidates.count else {
                    return .skipped(
                        reason: "no value for the \(parts[index].name) that its schema accepts was found "
                            + "(\(violation.message))")
                }
            }
        }
        return .skipped(reason: "no request that the contract accepts was found in \(Self.maximumAttempts) tries")
    }

    /// Whether `violation` is about `part`'s value.
    private static func violation(_ violation: ContractViolation, concerns part: Part) -> Bool {
        switch (part.kind, violation.kind) {
        case (.parameter(let parameter), .missingParameter(let name, let location)):
            return parameter.name == name && parameter.location == location
        case (.parameter(let parameter), .schemaMismatch):
            let prefix = "\(parameter.location.rawValue) \(parameter.name)"
            guard let path = violation.instancePath else { return false }
            return path == prefix || path.hasPrefix(prefix + "/")
        case (.body, .missingBody), (.body, .missingContentType), (.body, .undeclaredContentType),
            (.body, .invalidJSON):
            return true
        case (.body, .schemaMismatch):
            guard let path = violation.instancePath else { return true }
            return path.isEmpty || path.hasPrefix("/")
        default:
            return false
        }
    }

    /// The names of the `{parameters}` of a path template, in order.
    static func templateParameters(_ template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

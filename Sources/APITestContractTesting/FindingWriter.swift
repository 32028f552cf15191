import APITestJSON
import APITestOpenAPI
import APITestResults
import APITestSecrets
import APITestSuiteWriting
import APITestSupport

/// Writes each finding of a run as a suite file a team keeps (through ``SuiteDocument``, the model the importers
/// and `generate` write): one test sending the finding's smallest request, a `# reproduce: curl …` comment line,
/// and expectations that make `apitest run` fail the same way until the API is fixed:
///
/// - a conformance finding sets the suite's `openapi:` (the contract check of every response) and expects the
///   status seen;
/// - `not_a_server_error` expects any status below 500;
/// - `negative_data_rejection` and `ignored_auth` expect a 4xx;
/// - `positive_data_acceptance` expects neither 400 nor 422;
/// - `unsupported_method` expects 405 and an `Allow` header;
/// - `use_after_free` and `ensure_resource_availability` create the resource first (its id captured), then read
///   it (after deleting it for `use_after_free`) and expect 404 or 410, or not 404.
///
/// Values the server or the generator made are data, never template: every `{{` is escaped; credentials are
/// `{{ env.NAME }}` references, never values.
struct FindingWriter {
    /// The engine that ran (for the document, configuration, masker and curl lines).
    let engine: FuzzEngine
    /// The document's path, relative to the findings' folder.
    let documentReference: String

    /// The file name and text of each finding, in the run's order.
    func files(of run: FuzzRun, seed: UInt64) -> [(name: String, text: String)] {
        var names = Set<String>()
        return run.findings.enumerated().map { number, finding in
            let operation = engine.description.operations[finding.operation]
            var base = "\(String(format3: number + 1))-\(finding.check.rawValue)-\(Self.slug(operation.displayName))"
            while names.contains(base) { base += "-" }
            names.insert(base)
            let text = SuiteDocumentRenderer(suite: suite(finding, number: number, seed: seed)).render()
            return (base + ".yaml", addingReproduce(finding, to: text))
        }
    }

    /// The suite of one finding.
    func suite(_ finding: FuzzFinding, number: Int, seed: UInt64) -> SuiteDocument {
        let operation = engine.description.operations[finding.operation]
        let outcome = finding.minimal
        let masker = engine.masker
        var suite = SuiteDocument(
            name: "fuzz finding \(number + 1): \(finding.check.rawValue) on \(operation.displayName)")
        var base = engine.configuration.baseURL
        if !base.hasSuffix("/") { base += "/" }
        suite.baseURL = Self.escaped(base)
        suite.header = [
            "Found by apitest fuzz (seed \(seed), \(outcome.fuzzCase.phase.rawValue) phase): \(finding.check.rawValue) on "
                + "\(operation.method) \(operation.pathTemplate)",
            masker.mask(finding.message),
        ]
        if Self.usesContract(finding.check) {
            suite.openAPI = SuiteDocument.OpenAPISetting(file: documentReference, server: engine.configuration.baseURL)
        }
        var test = SuiteDocument.Test(
            name: "\(finding.check.rawValue): \(finding.signature)", request: request(outcome.request))
        test.expect.status = Self.expectedStatus(finding.check, seen: outcome.response?.status)
        if finding.check == .unsupportedMethod {
            test.expect.headers = [(name: "Allow", check: .object(JSONObject([(key: "exists", value: .bool(true))])))]
        }
        if finding.check == .useAfterFree || finding.check == .ensureResourceAvailability
            || (finding.check == .ignoredAuth && finding.outcome.fuzzCase.phase == .stateful),
            let sequence = sequence(for: finding)
        {
            test = sequence
        }
        suite.tests = [test]
        return suite
    }

    /// `text` with the `# reproduce: curl …` comment line right after the header comment: one line whatever its
    /// length, so that it can be copied whole.
    func addingReproduce(_ finding: FuzzFinding, to text: String) -> String {
        let line = engine.masker.mask(engine.curl(finding.minimal.request).line)
        let comment = YAMLEmitter.comment("reproduce: " + line, width: Int.max).joined(separator: "\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = lines.firstIndex { !$0.hasPrefix("#") } ?? 0
        lines.insert(comment, at: position)
        return lines.joined(separator: "\n")
    }

    /// Whether a finding of `check` is shown by the suite's contract check.
    static func usesContract(_ check: FuzzCheck) -> Bool {
        switch check {
        case .statusCodeConformance, .contentTypeConformance, .responseSchemaConformance, .responseHeadersConformance:
            true
        default: false
        }
    }

    /// The statuses the fixed API answers with.
    static func expectedStatus(_ check: FuzzCheck, seen: Int?) -> [JSONValue] {
        switch check {
        case .notAServerError: [.string("1xx"), .string("2xx"), .string("3xx"), .string("4xx")]
        case .negativeDataRejection, .ignoredAuth: [.string("4xx")]
        case .positiveDataAcceptance:
            [.string("2xx"), .string("3xx"), .integer(401), .integer(403), .integer(404), .integer(405), .integer(409)]
        case .unsupportedMethod: [.integer(405)]
        case .useAfterFree: [.integer(404), .integer(410)]
        case .ensureResourceAvailability: [.string("2xx")]
        default:
            // The contract check fails the run; the status seen keeps the test about this response.
            seen.map { [.integer(Int64($0))] } ?? []
        }
    }

    /// `request` in the suite format: the URL relative to the base, the headers with credentials as environment
    /// references, the body as JSON when it is, else as text.
    func request(_ request: BuiltRequest) -> SuiteDocument.Request {
        var written = SuiteDocument.Request(
            method: request.method, url: Self.escaped(String(request.pathAndQuery.drop { $0 == "/" })))
        let secrets = engine.masker
        var contentType: String?
        for header in request.headers {
            if header.name.lowercased() == "content-type" {
                contentType = header.value
                continue
            }
            let value =
                secrets.containsSecret(header.value)
                ? "{{ env.\(FuzzEngine.variableName(header.name)) }}" : Self.escaped(header.value)
            written.headers.append(SuiteDocument.Header(header.name, value))
        }
        if !request.body.isEmpty {
            let text = String(decoding: request.body, as: UTF8.self)
            if contentType.map({ $0.lowercased().contains("json") }) == true, let value = try? JSONParser.parse(text),
                contentType?.lowercased().hasPrefix("application/json") == true
            {
                written.body = .json(Self.escaped(value))
            } else {
                written.body = .text(Self.escaped(text), contentType: contentType)
            }
        } else if let contentType {
            written.headers.append(SuiteDocument.Header("Content-Type", Self.escaped(contentType)))
        }
        return written
    }

    /// The create-then-read sequence of a stateful finding: the creation (its id captured from the body), for
    /// `use_after_free` the deletion, then the read (for `ignored_auth` the request without credentials), expecting
    /// what the fixed API answers.
    private func sequence(for finding: FuzzFinding) -> SuiteDocument.Test? {
        let read = finding.outcome
        guard let create = engine.lastCreate(before: read),
            let id = engine.createdIDPointer(create: create, read: read)
        else { return nil }
        var test = SuiteDocument.Test(
            name: "\(finding.check.rawValue): \(finding.signature)", request: request(create.request))
        test.captures = [(name: "created_id", query: .object(JSONObject([(key: "jsonpath", value: .string(id.path))])))]
        var steps: [SuiteDocument.Step] = []
        if finding.check == .useAfterFree, let delete = engine.deleteOutcome(before: read) {
            var step = SuiteDocument.Step(
                source: "delete", request: self.request(delete.request, replacing: id.value))
            step.expect.status = [.string("2xx")]
            steps.append(step)
        }
        var last = SuiteDocument.Step(source: "read", request: request(read.request, replacing: id.value))
        last.expect.status = Self.expectedStatus(finding.check, seen: read.response?.status)
        steps.append(last)
        test.expect.status = [.string("2xx")]
        test.laterSteps = steps
        return test
    }

    /// `request` with the created id's text in its path replaced by the capture.
    private func request(_ request: BuiltRequest, replacing id: String) -> SuiteDocument.Request {
        var written = self.request(request)
        let encoded = PercentText.encode(id, keeping: "")
        let path = written.url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var segments = path[0].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = segments.lastIndex(where: { $0 == encoded }) { segments[last] = "{{ created_id }}" }
        written.url = segments.joined(separator: "/") + (path.count > 1 ? "?" + path[1] : "")
        return written
    }

    // MARK: - Text

    /// `text` written so that a suite sends it as it is: each `{` another `{` follows is written `{{ '{' }}`.
    static func escaped(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "{", index + 1 < scalars.count, scalars[index + 1] == "{" {
                result += "{{ '{' }}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `value` with every string escaped.
    static func escaped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(escaped(text))
        case .array(let items): .array(items.map { escaped($0) })
        case .object(let object): .object(JSONObject(object.map { (key: $0.key, value: escaped($0.value)) }))
        default: value
        }
    }

    /// A file-name part of `name`: letters, digits and `-`, at most 60 characters.
    static func slug(_ name: String) -> String {
        var text = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        while text.contains("--") { text = text.replacing("--", with: "-") }
        text = String(text.drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed())
        return String(text.prefix(60)).isEmpty ? "operation" : String(text.prefix(60))
    }
}

extension String {
    /// A number of at least three digits, zero-padded.
    init(format3 value: Int) {
        self = value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}

// MARK: - Writing

extension FuzzEngine {
    /// The suite files of `run`'s findings (name and text), for a folder from which the document is at
    /// `documentReference`.
    package func findingFiles(of run: FuzzRun, documentReference: String) -> [(name: String, text: String)] {
        FindingWriter(engine: self, documentReference: documentReference).files(of: run, seed: configuration.seed)
    }

    /// The creation that came last before `read` in the run's stateful outcomes (the one the server accepted, after
    /// any it refused).
    func lastCreate(before read: CaseOutcome) -> CaseOutcome? {
        read.history.last { $0.fuzzCase.purpose == .stateful(.create) }
    }

    /// The deletion of `read`'s sequence: the one with credentials, else the one without them that got a 2xx.
    func deleteOutcome(before read: CaseOutcome) -> CaseOutcome? {
        read.history.last { outcome in
            if outcome.fuzzCase.purpose == .stateful(.delete) { return true }
            guard outcome.fuzzCase.purpose == .withoutCredentials(bogus: false), outcome.fuzzCase.phase == .stateful,
                outcome.request.method == "DELETE", let status = outcome.response?.status
            else { return false }
            return (200..<300).contains(status)
        }
    }

    /// Where the created resource's id is in the creation's response (a JSONPath) and its text.
    func createdIDPointer(create: CaseOutcome, read: CaseOutcome) -> (path: String, value: String)? {
        guard let response = create.response, let body = try? JSONParser.parse(response.body),
            case .object(let object) = body
        else { return nil }
        let operation = description.operations[read.fuzzCase.operation]
        guard let last = Self.lastTemplateName(operation.pathTemplate),
            let value = read.fuzzCase.parameters.first(where: { $0.location == .path && $0.name == last })?.value
        else { return nil }
        for (key, member) in object where member == value {
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            return ("$.\(key)", ParameterText.primitive(value))
        }
        return nil
    }
}

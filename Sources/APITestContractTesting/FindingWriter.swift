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
/// - `use_after_free` expects 404 or 410, `ensure_resource_availability` a 2xx.
///
/// A finding of the stateful phase is written as its (shrunk) sequence, one test whose steps create the resource
/// (its id captured) and work on it, the failing step last (`FindingWriter+Sequence.swift`).
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
        suite.baseURL = TemplateLiteral.escaped(base)
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
        if outcome.fuzzCase.phase == .stateful {
            suite.header += sequenceComments(finding)
            if let sequence = sequence(for: finding) { test = sequence }
        }
        suite.tests = [test]
        return suite
    }

    /// `text` with the `# reproduce: curl …` comment line right after the header comment: one line whatever its
    /// length, so that it can be copied whole. A finding written as a sequence has one line per step, in order, each
    /// ending with a shell comment naming the step (the ids in them are those of the run; the suite captures its own).
    func addingReproduce(_ finding: FuzzFinding, to text: String) -> String {
        let steps = writtenSequence(finding)
        let comments = steps.enumerated().map { number, outcome in
            var line = engine.masker.mask(engine.curl(outcome.request).line)
            if steps.count > 1 { line += "  # step \(number + 1): " + engine.masker.mask(outcome.fuzzCase.label) }
            return YAMLEmitter.comment("reproduce: " + line, width: Int.max).joined(separator: "\n")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = lines.firstIndex { !$0.hasPrefix("#") } ?? 0
        lines.insert(contentsOf: comments, at: position)
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
            method: request.method, url: TemplateLiteral.escaped(String(request.pathAndQuery.drop { $0 == "/" })))
        let secrets = engine.masker
        var contentType: String?
        for header in request.headers {
            if header.name.lowercased() == "content-type" {
                contentType = header.value
                continue
            }
            let value =
                secrets.containsSecret(header.value)
                ? "{{ env.\(FuzzEngine.variableName(header.name)) }}" : TemplateLiteral.escaped(header.value)
            written.headers.append(SuiteDocument.Header(header.name, value))
        }
        if !request.body.isEmpty {
            let text = String(decoding: request.body, as: UTF8.self)
            if contentType.map({ $0.lowercased().contains("json") }) == true, let value = try? JSONParser.parse(text),
                contentType?.lowercased().hasPrefix("application/json") == true
            {
                written.body = .json(TemplateLiteral.escaped(value))
            } else {
                written.body = .text(TemplateLiteral.escaped(text), contentType: contentType)
            }
        } else if let contentType {
            written.headers.append(SuiteDocument.Header("Content-Type", TemplateLiteral.escaped(contentType)))
        }
        return written
    }

    // MARK: - Text

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
}

import APITestContractTesting
import APITestSupport
import ArgumentParser

/// `apitest fuzz SPEC --base-url URL`: requests generated from an OpenAPI document in phases (examples, coverage,
/// fuzzing, stateful), every response checked; findings shrunk and written as suites.
struct FuzzCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Generate requests from an OpenAPI 3.0/3.1 document, check every response, keep findings as suites.",
        usage: "apitest fuzz <spec> [--base-url <url>] [<options>]",
        discussion: """
            Phases, in order (--phases): examples (every documented example), coverage (boundary values of every \
            schema keyword, each required value left out, undeclared methods, requests without credentials), \
            fuzzing (seeded random valid and invalid data, --max-examples per operation) and stateful (create, \
            read, update, delete through links, Location headers and ids in responses).

            Checks (--checks, Schemathesis's names): not_a_server_error, status_code_conformance, \
            content_type_conformance, response_schema_conformance, response_headers_conformance, \
            negative_data_rejection, positive_data_acceptance, use_after_free, ensure_resource_availability, \
            unsupported_method, ignored_auth.

            The same --seed makes the same requests and reports them in the same order. Each finding is shrunk \
            to a smaller request that fails the same way and written under --findings as a suite that apitest run \
            fails until the API is fixed. Exit status: 0 no finding, 1 findings, 2 invalid command line or \
            document, 3 no request got a response or a report or finding could not be written, 4 no request \
            was sent (no operation, no case in --phases, or --duration ran out first). See docs/fuzz.md.

            Examples:
              apitest fuzz api/openapi.yaml --base-url http://localhost:8080
              apitest fuzz api.yaml --seed 7 --max-examples 50 --checks not_a_server_error,ignored_auth
              apitest fuzz api.yaml --phases examples,coverage --header "Authorization: Bearer $TOKEN"
            """
    )

    @Argument(
        help: ArgumentHelp("The OpenAPI 3.0 or 3.1 document (YAML or JSON).", valueName: "spec"),
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var spec: String

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp("Where the API is (default: the document's first server, when absolute).", valueName: "url"))
    var baseURL: String?

    @Option(help: ArgumentHelp("The seed of every generated value (default: a random one, printed).", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Cases of the fuzzing phase per operation.", valueName: "n"))
    var maxExamples: Int = 100

    @Option(
        help: ArgumentHelp(
            "Time the run may take; cases not started by then are not sent (e.g. 30s).", valueName: "duration"))
    var duration: DurationArgument?

    @Option(
        help: ArgumentHelp("Phases to run, comma-separated, or all.", valueName: "examples,coverage,fuzzing,stateful"))
    var phases: String = "all"

    @Option(help: ArgumentHelp("Checks to apply, comma-separated, or all.", valueName: "names"))
    var checks: String = "all"

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp(
            "A header every request carries, 'Name: value' (repeat); credentials go here.", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
    var concurrency: Int = 10

    @OptionGroup var requests: RequestOptions

    @OptionGroup var specOptions: SpecOptions

    @OptionGroup var reports: ReportOptions

    @OptionGroup(title: "TLS (as for run)")
    var security: SecurityFlags

    @OptionGroup(title: "Transport (as for run)")
    var transport: TransportFlags

    @Option(
        help: ArgumentHelp("The folder findings are written to, a suite each.", valueName: "dir"),
        completion: .directory)
    var findings: String = "fuzz-findings"

    @Flag(help: "Generate and list the cases without sending anything.")
    var dryRun = false

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    /// The phases and checks named, checked by ``validate()``.
    private(set) var parsedPhases: [FuzzPhase] = FuzzPhase.allCases
    private(set) var parsedChecks: [FuzzCheck] = FuzzCheck.allCases
    private(set) var parsedHeaders: [BuiltRequest.Header] = []

    private enum CodingKeys: String, CodingKey {
        case spec, baseURL, seed, maxExamples, duration, phases, checks, headers, concurrency, requests, specOptions
        case reports, security, transport
        case findings, dryRun, noColor
    }

    mutating func validate() throws {
        try CommandLineFile.check(spec, flag: "spec")
        do {
            parsedPhases = try FuzzPhase.parse(phases)
            parsedChecks = try FuzzCheck.parse(checks)
        } catch {
            throw ValidationError(error.description)
        }
        guard maxExamples >= 0 && maxExamples <= 100_000 else {
            throw ValidationError("--max-examples must be between 0 and 100000")
        }
        guard concurrency >= 1 && concurrency <= 1000 else {
            throw ValidationError("--concurrency must be between 1 and 1000")
        }
        if findings.isEmpty { throw ValidationError("--findings needs a folder") }
        if let problem = FindingsFolder.problem(findings) {
            throw ValidationError("--findings '\(findings.shownInMessage)' \(problem); nothing was sent")
        }
        parsedHeaders = try headers.map { text in
            guard let colon = text.firstIndex(of: ":") else {
                throw ValidationError("--header '\(text.shownInMessage)': write it as 'Name: value'")
            }
            let name = String(text[..<colon])
            let value = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            // By scalar: "\r\n" is one Character, which `contains("\n")` does not find.
            let control = text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t"), !control else {
                throw ValidationError("--header '\(text.shownInMessage)': write it as 'Name: value' on one line")
            }
            return BuiltRequest.Header(name, value)
        }
        if let baseURL {
            let lowered = baseURL.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
                throw ValidationError("--base-url '\(baseURL.shownInMessage)' must be an http:// or https:// URL")
            }
            guard !baseURL.contains("?"), !baseURL.contains("#") else {
                throw ValidationError(
                    "--base-url '\(baseURL.shownInMessage)' must have no query or fragment: the document's paths are "
                        + "appended to it")
            }
        }
    }
}

import APITestReporting
import APITestResults
import APITestRunner
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest pin-check URL`: connect, show the certificate chain and whether it matches the pins a team ships.
struct PinCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin-check",
        abstract: "Check a server's certificate chain against pins: what matched where, and how long until expiry.",
        discussion: """
            Connects (TCP and TLS only; no request is sent), verifies the chain during the handshake and prints \
            every certificate of it: depth, subject, issuer, validity, days left, SPKI pin and SHA-256 \
            fingerprint. Any certificate of the chain (leaf, intermediate or root) may match a pin.

            Modes (--pinning, or --mode; as AFNetworking's AFSecurityPolicy):
              publicKey    a pin (or a --certificate's key) must match the key of a
                           certificate of the chain
              certificate  the --certificate files are the only trust anchors; a
                           certificate of the chain must equal one of them
              none         the chain must be valid (system trust store or --ca-file)
            Default: publicKey with --pin, certificate with only --certificate, none \
            otherwise. The TLS flags are run's, with the same meaning; --client-cert \
            and --client-key present a client certificate in the handshake.

            Examples:
              apitest pin-check https://staging.example.com/ --min-days 30 \\
                  --pin sha256//AbC...= --pin sha256//XyZ...=
              apitest pin-check https://api.example.com/ --print
              apitest pin-check https://api.example.com/ --format json \\
                  --connect-to api.example.com:203.0.113.7

            Exit codes:
              0  the chain is trusted and a pin matched (or nothing was pinned)
              2  invalid command line
              3  the result could not be written to standard output
              4  pin mismatch: no certificate of the chain matches a pin
              5  certificate invalid: expired, not yet valid, self-signed, unknown
                 issuer or hostname mismatch
              6  expiring: a certificate of the chain expires within N days (--min-days N)
              7  connection failed (DNS, refused, timeout, TLS protocol error)
            """
    )

    /// pin-check's exit codes.
    enum Status: Int32 {
        case matched = 0
        case usage = 2
        case pinMismatch = 4
        case certificateInvalid = 5
        case expiring = 6
        case connectionFailed = 7
    }

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The https URL of the server.")
    var url: String

    @OptionGroup(title: "TLS") var security: SecurityFlags

    @Option(help: ArgumentHelp("Fail when a certificate of the chain expires within N days.", valueName: "N"))
    var minDays: Int?

    @Flag(name: .customLong("print"), help: "Print the chain's pins ready to paste into a suite and into curl.")
    var printPins = false

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: OutputFormat = .text

    @Option(
        name: .customLong("connect-to"),
        help: ArgumentHelp(
            "Connect to ADDRESS for HOST (check a server before DNS points at it).", valueName: "host:address"))
    var connectTo: [String] = []

    @Option(help: ArgumentHelp("Time allowed to connect and complete the handshake.", valueName: "duration"))
    var timeout: DurationArgument?

    @Flag(help: "Never colour the output.")
    var noColor = false

    /// The check the flags describe, its policy built once by ``validate()`` (not an argument).
    private(set) var check: PinCheck?

    /// The arguments, for swift-argument-parser; ``check`` is not one. A new option needs its key here: a debug build
    /// of swift-argument-parser refuses to parse `pin-check` while one is missing, so its tests fail.
    private enum CodingKeys: String, CodingKey {
        case url, security, minDays, printPins, format, connectTo, timeout, noColor
    }

    /// Checks the URL and the other flags (the TLS flags check themselves), then builds the check's security
    /// policy: a policy that can never trust a server, or a certificate file that holds none, is a usage error.
    mutating func validate() throws {
        guard url.lowercased().hasPrefix("https://"), URLComponents(string: url)?.host?.isEmpty == false else {
            throw ValidationError("'\(url)' is not an https URL")
        }
        if let minDays, minDays < 0 { throw ValidationError("--min-days must be 0 or more") }
        check = try prepare()
    }

    /// What the flags ask for, for the runner's `PinCheckService`: each `--connect-to` read once (a usage error
    /// when it is not `host:address`), the TLS flags made into overrides as `run` makes them
    /// (``SecurityFlags/overrides()``).
    func request() throws -> PinCheckRequest {
        let resolve = try connectTo.map { entry in
            guard let resolved = Self.resolveEntry(entry, url: url) else {
                throw ValidationError("--connect-to expects host:address, got '\(entry)'")
            }
            return resolved
        }
        return PinCheckRequest(
            url: url, security: try security.overrides(), minDays: minDays, resolve: resolve,
            timeout: timeout?.duration)
    }

    /// The check of ``request()`` with its policy built, a usage error when it cannot be.
    private func prepare() throws -> PinCheck {
        let request = try request()
        do {
            return try PinCheck(request)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// `host:address` as curl's `--resolve` entry `host:port:address` for the URL's port.
    static func resolveEntry(_ entry: String, url: String) -> String? {
        guard let colon = entry.firstIndex(of: ":"), colon != entry.startIndex else { return nil }
        let host = entry[..<colon]
        var address = String(entry[entry.index(after: colon)...])
        guard !address.isEmpty else { return nil }
        if address.contains(":") && !address.hasPrefix("[") { address = "[\(address)]" }
        let port = URLComponents(string: url)?.port ?? 443
        return "\(host):\(port):\(address)"
    }

    func run() async throws {
        // Standard output redirected to a certificate file it reads would overwrite it.
        var inputs = OutputGuard()
        inputs.add(security)
        try inputs.check([], errorOutput: StandardOutput.error, consequence: "nothing was checked")
        // Parsed commands come validated, their policy built; one made otherwise builds it here.
        let result = await PinCheckService.check(try check ?? prepare())
        let exitCode = Self.exitStatus(result.status)
        let output = StandardOutput.out
        switch format {
        case .text:
            let colored = ANSIStyle.shouldColor(
                output: output, environment: ProcessInfo.processInfo.environment, disabled: noColor)
            output.write(PinCheckReportFormat.text(result, colored: colored, printPins: printPins))
        case .json:
            output.write(PinCheckReportFormat.json(result, exitCode: exitCode.rawValue, printPins: printPins))
        }
        output.flush()
        if exitCode != .matched { throw ExitCode(exitCode.rawValue) }
    }

    /// The exit status for a verdict.
    static func exitStatus(_ status: PinCheckResult.Status) -> Status {
        switch status {
        case .matched: .matched
        case .pinMismatch: .pinMismatch
        case .certificateInvalid: .certificateInvalid
        case .expiring: .expiring
        case .connectionFailed: .connectionFailed
        }
    }
}

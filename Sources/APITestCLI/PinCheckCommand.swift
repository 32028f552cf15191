import APITestReporting
import APITestResults
import APITestRunner
import APITestSecurity
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

            Modes (as AFNetworking's AFSecurityPolicy):
              publicKey    a pin (or a --certificate's key) must match the key of a
                           certificate of the chain
              certificate  the --certificate files are the only trust anchors; a
                           certificate of the chain must equal one of them
              none         the chain must be valid (system trust store or --ca-file)
            Default: publicKey with --pin, certificate with only --certificate, none \
            otherwise.

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

    @Option(name: .customLong("pin"), help: ArgumentHelp("A pin, sha256//<base64> (repeat).", valueName: "pin"))
    var pins: [String] = []

    @Option(
        name: .customLong("certificate"),
        help: ArgumentHelp("A pinned certificate file, PEM (several allowed) or DER (repeat).", valueName: "file"))
    var certificates: [String] = []

    @Option(help: ArgumentHelp("publicKey, certificate or none.", valueName: "mode"))
    var mode: PinningMode?

    @Option(help: ArgumentHelp("A PEM bundle of trust anchors instead of the system's.", valueName: "file"))
    var caFile: String?

    @Flag(help: "Accept a chain that fails verification (pins still apply).")
    var allowInvalidCertificates = false

    @Flag(name: .customLong("no-validate-domain"), help: "Do not check the certificate's host name.")
    var noValidateDomain = false

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

    mutating func validate() throws {
        guard url.lowercased().hasPrefix("https://"), URLComponents(string: url)?.host?.isEmpty == false else {
            throw ValidationError("'\(url)' is not an https URL")
        }
        if let minDays, minDays < 0 { throw ValidationError("--min-days must be 0 or more") }
        for entry in connectTo where Self.resolveEntry(entry, url: url) == nil {
            throw ValidationError("--connect-to expects host:address, got '\(entry)'")
        }
        for file in certificates { try CommandLineFile.check(file, flag: "--certificate") }
        if let caFile { try CommandLineFile.check(caFile, flag: "--ca-file") }
        let request = try request()
        do {
            _ = try PinCheckService.policy(for: request)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// What the flags ask for, for the runner's `PinCheckService`; throws for a `--pin` that is not a pin.
    func request() throws -> PinCheckRequest {
        PinCheckRequest(
            url: url,
            security: SecurityOverrides(
                pinning: mode, pins: try SecurityFlags.parse(pins), certificates: certificates,
                allowInvalidCertificates: allowInvalidCertificates ? true : nil,
                validatesDomainName: noValidateDomain ? false : nil, caFile: caFile),
            minDays: minDays, resolve: connectTo.compactMap { Self.resolveEntry($0, url: url) },
            timeout: timeout?.duration)
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
        for file in certificates { inputs.add(file, as: .flag("--certificate")) }
        if let caFile { inputs.add(caFile, as: .flag("--ca-file")) }
        try inputs.check([], errorOutput: StandardOutput.error, consequence: "nothing was checked")
        let request = try request()
        let result: PinCheckResult
        do {
            result = try await PinCheckService.check(request)
        } catch {
            throw ValidationError("\(error)")
        }
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

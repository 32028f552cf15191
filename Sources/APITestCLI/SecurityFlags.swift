import APITestHTTP
import APITestReporting
import APITestRunner
import APITestSuite
import ArgumentParser
import Foundation

extension SecurityPolicy.PinningMode: ExpressibleByArgument {}

/// `apitest run`'s TLS flags: each one given replaces the same setting of every suite's `security:` block.
struct SecurityFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Pinning mode: none, publicKey or certificate.", valueName: "mode"))
    var pinning: SecurityPolicy.PinningMode?

    @Option(
        name: .customLong("pin"),
        help: ArgumentHelp(
            "A public-key pin, sha256//<base64> (repeat for backups); any certificate of the chain may match.",
            valueName: "pin"))
    var pins: [String] = []

    @Option(
        name: .customLong("certificate"),
        help: ArgumentHelp("A pinned certificate file, PEM or DER (repeat).", valueName: "file"))
    var certificates: [String] = []

    @Flag(help: "Accept chains that fail verification (pins and, unless --no-validate-domain, host names still apply).")
    var allowInvalidCertificates = false

    @Flag(name: .customLong("no-validate-domain"), help: "Do not check the certificate's host name.")
    var noValidateDomain = false

    @Option(help: ArgumentHelp("A PEM bundle of trust anchors instead of the system's.", valueName: "file"))
    var caFile: String?

    @Option(
        name: .customLong("client-cert"),
        help: ArgumentHelp("A client certificate (PEM) for mutual TLS.", valueName: "file"))
    var clientCertificate: String?

    @Option(
        name: .customLong("client-key"), help: ArgumentHelp("The client certificate's key (PEM).", valueName: "file"))
    var clientKey: String?

    mutating func validate() throws {
        for pin in pins {
            do { _ = try PinnedKey(pin) } catch { throw ValidationError("--pin: \(error.message)") }
        }
        for file in certificates + [caFile, clientCertificate, clientKey].compactMap({ $0 })
        where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read '\(file)'")
        }
    }

    /// The overrides for the runner.
    func overrides() throws -> SecurityOverrides {
        SecurityOverrides(
            pinning: pinning, pins: pins, certificates: certificates.map(Self.absolute),
            allowInvalidCertificates: allowInvalidCertificates ? true : nil,
            validatesDomainName: noValidateDomain ? false : nil, caFile: caFile.map(Self.absolute),
            clientCertificate: clientCertificate.map(Self.absolute), clientKey: clientKey.map(Self.absolute))
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

extension SecurityFlags {
    /// Builds every suite's policy before anything runs (certificate files are read here); reports each problem
    /// as `file:line:column: security: message` and returns false when there is one. Warns once about a single
    /// `--pin`.
    func checkPolicies(of suites: [Suite], errorOutput: StandardOutput) -> Bool {
        guard let overrides = try? overrides() else { return false }
        return Self.checkPolicies(
            of: suites, overrides: overrides, warnAboutSinglePin: !pins.isEmpty, errorOutput: errorOutput)
    }

    /// As `checkPolicies(of:errorOutput:)`, for given overrides (`apitest validate` passes none).
    static func checkPolicies(
        of suites: [Suite], overrides: SecurityOverrides, warnAboutSinglePin: Bool, errorOutput: StandardOutput
    ) -> Bool {
        var valid = true
        var policies: [SecurityPolicy] = []
        for suite in suites {
            do {
                if let policy = try overrides.policy(for: suite.security) { policies.append(policy) }
            } catch {
                let place = suite.security.map { "\($0.location)" } ?? suite.file
                errorOutput.write("error: \(place): security: \(error.message)\n")
                valid = false
            }
        }
        if valid, warnAboutSinglePin, let warning = policies.first?.singlePinWarning {
            errorOutput.write("warning: --pin: \(warning)\n")
        }
        errorOutput.flush()
        return valid
    }
}

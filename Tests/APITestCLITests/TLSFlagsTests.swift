import APITestRunner
import APITestSecurity
import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// The TLS flags are declared once (`SecurityFlags`) for `run`, `load` and `pin-check` (issue 36, item 5): one
/// help text, one set of checks, one conversion into the runner's overrides; `pin-check` builds its policy once,
/// when its flags are validated.
@Suite struct TLSFlagsTests {
    static let pin = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
    static let backupPin = "sha256//" + Data(repeating: 2, count: 32).base64EncodedString()

    /// The lines of the TLS section of `command`'s help (the section title left out), at 120 columns.
    static func tlsSection(of command: any ParsableCommand.Type) throws -> [String] {
        let help = APITestCommand.helpMessage(for: command, columns: 120)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("TLS") }, "no TLS section in:\n\(help)")
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The command `arguments` parse to, validated, or the usage error's message.
    static func parse(_ arguments: [String]) -> Result<any ParsableCommand, UsageMessage> {
        do {
            return .success(try APITestCommand.parseAsRoot(arguments))
        } catch {
            return .failure(UsageMessage(text: APITestCommand.message(for: error)))
        }
    }

    /// A usage error's message.
    struct UsageMessage: Error {
        let text: String
    }

    // MARK: - One declaration

    @Test func runLoadAndPinCheckListTheSameTLSFlags() throws {
        let run = try Self.tlsSection(of: RunCommand.self)
        #expect(try Self.tlsSection(of: PinCheckCommand.self) == run)
        #expect(try Self.tlsSection(of: LoadCommand.self) == run)
        let text = run.joined(separator: "\n")
        for flag in [
            "--pinning, --mode <mode>", "--pin <pin>", "--certificate <file>", "--allow-invalid-certificates",
            "--no-validate-domain", "--ca-file <file>", "--client-cert <file>", "--client-key <file>",
        ] {
            #expect(text.contains(flag), "\(flag) is not in the TLS section:\n\(text)")
        }
    }

    @Test func pinCheckMakesTheOverridesRunMakes() throws {
        let flags = [
            "--pinning", "publicKey", "--pin", Self.pin, "--pin", Self.backupPin, "--no-validate-domain",
            "--allow-invalid-certificates",
        ]
        let run = try #require(try Self.parse(["run", "suite.yaml"] + flags).get() as? RunCommand)
        let pinCheck = try #require(
            try Self.parse(["pin-check", "https://example.com/"] + flags).get() as? PinCheckCommand)
        let check = try #require(pinCheck.check, "validate() builds the check")
        #expect(check.request.security == (try run.security.overrides()))
        #expect(check.request.security.pins.map(\.description) == [Self.pin, Self.backupPin])
        #expect(check.request.security.validatesDomainName == false)
    }

    @Test func theFlagsAreConvertedOnceWhenTheyAreValidated() throws {
        let flags = ["--pin", Self.pin, "--pinning", "publicKey", "--no-validate-domain"]
        for arguments in [
            ["run", "suite.yaml"] + flags, ["load", "suite.yaml", "--rate", "1/s", "--duration", "1s"] + flags,
        ] {
            let command = try Self.parse(arguments).get()
            let security = try #require((command as? RunCommand)?.security ?? (command as? LoadCommand)?.security)
            let validated = try #require(security.validated, "\(arguments[0]): validate() kept no overrides")
            #expect(validated.pins.map(\.description) == [Self.pin])
            #expect(validated.pinning == .publicKey)
            #expect(validated.validatesDomainName == false)
            #expect(try security.overrides() == validated)
        }
        // Flags never validated are converted the same way when asked.
        var unvalidated = SecurityFlags()
        unvalidated.pinning = nil
        unvalidated.pins = [Self.pin]
        unvalidated.certificates = []
        unvalidated.allowInvalidCertificates = false
        unvalidated.noValidateDomain = false
        unvalidated.caFile = nil
        unvalidated.clientCertificate = nil
        unvalidated.clientKey = nil
        #expect(unvalidated.validated == nil)
        #expect(try unvalidated.overrides().pins.map(\.description) == [Self.pin])
    }

    // MARK: - pin-check's flags and errors

    @Test func pinCheckKeepsItsModeSpelling() throws {
        for spelling in ["--mode", "--pinning"] {
            let parsed = try Self.parse(["pin-check", "https://example.com/", spelling, "publicKey", "--pin", Self.pin])
            let command = try #require(try parsed.get() as? PinCheckCommand)
            #expect(command.check?.request.security.pinning == .publicKey)
        }
        let defaulted = try #require(
            try Self.parse(["pin-check", "https://example.com/", "--pin", Self.pin]).get() as? PinCheckCommand)
        #expect(defaulted.check?.request.security.pinning == nil)
    }

    @Test(arguments: [
        (["--pin", "sha256//short"], "--pin: the pin 'sha256//short' is not valid base64"),
        (["--mode", "bogus"], "The value 'bogus' is invalid for '--mode <mode>'"),
        (["--allow-invalid-certificates"], "you must pin it"),
        (["--ca-file", "/nonexistent/ca.pem"], "--ca-file '/nonexistent/ca.pem' does not exist"),
        (["--min-days=-1"], "--min-days must be 0 or more"),
        (["--connect-to", "nocolon"], "--connect-to expects host:address, got 'nocolon'"),
    ])
    func pinCheckUsageErrorsAreUnchanged(flags: [String], message: String) throws {
        let result = Self.parse(["pin-check", "https://example.com/"] + flags)
        guard case .failure(let error) = result else {
            Issue.record("\(flags) parsed")
            return
        }
        #expect(error.text.contains(message), "\(error.text)")
    }

    @Test func pinCheckRefusesAURLThatIsNotHTTPS() {
        guard case .failure(let error) = Self.parse(["pin-check", "http://example.com/"]) else {
            Issue.record("an http URL parsed")
            return
        }
        #expect(error.text.contains("'http://example.com/' is not an https URL"))
    }
}

import APITestSecurity
public import ArgumentParser

extension PinningMode: ExpressibleByArgument {}

/// The TLS flags, declared once for every command that takes them: `run` and `load` (each one given replaces the
/// same setting of every suite's `security:` block) and `pin-check` (the policy its handshake is checked against).
/// ``validate()`` turns them into the runner's ``SecurityOverrides`` once (pins parsed, file paths made absolute);
/// each command takes that value from ``overrides()``, and nothing else.
struct SecurityFlags: ParsableArguments {
    /// `--pinning`; `--mode` is the same flag, `pin-check`'s first spelling of it.
    @Option(
        name: [.customLong("pinning"), .customLong("mode")],
        help: ArgumentHelp("Pinning mode: none, publicKey or certificate.", valueName: "mode"))
    var pinning: PinningMode?

    @Option(
        name: .customLong("pin"),
        help: ArgumentHelp(
            "A public-key pin, sha256//<base64> (repeat for backups); any certificate of the chain may match.",
            valueName: "pin"))
    var pins: [String] = []

    @Option(
        name: .customLong("certificate"),
        help: ArgumentHelp("A pinned certificate file, PEM (several allowed) or DER (repeat).", valueName: "file"),
        completion: .file())
    var certificates: [String] = []

    @Flag(help: "Accept chains that fail verification (pins and, unless --no-validate-domain, host names still apply).")
    var allowInvalidCertificates = false

    @Flag(name: .customLong("no-validate-domain"), help: "Do not check the certificate's host name.")
    var noValidateDomain = false

    @Option(
        help: ArgumentHelp("A PEM bundle of trust anchors instead of the system's.", valueName: "file"),
        completion: .file())
    var caFile: String?

    @Option(
        name: .customLong("client-cert"),
        help: ArgumentHelp("A client certificate (PEM) for mutual TLS.", valueName: "file"), completion: .file())
    var clientCertificate: String?

    @Option(
        name: .customLong("client-key"), help: ArgumentHelp("The client certificate's key (PEM).", valueName: "file"),
        completion: .file())
    var clientKey: String?

    /// The flags as the runner's overrides, made by ``validate()``; not an argument.
    private(set) var validated: SecurityOverrides?

    /// The arguments, for swift-argument-parser; ``validated`` is not one. A new flag needs its key here: a debug
    /// build of swift-argument-parser refuses to parse a command while one is missing, so its tests fail.
    private enum CodingKeys: String, CodingKey {
        case pinning, pins, certificates, allowInvalidCertificates, noValidateDomain, caFile, clientCertificate
        case clientKey
    }

    /// Refuses a malformed pin, and a file flag that does not name a readable regular file (usage errors); keeps
    /// the overrides the flags make, so that no command converts them again.
    mutating func validate() throws {
        let overrides = try converted()
        for file in certificates { try CommandLineFile.check(file, flag: "--certificate") }
        if let caFile { try CommandLineFile.check(caFile, flag: "--ca-file") }
        if let clientCertificate { try CommandLineFile.check(clientCertificate, flag: "--client-cert") }
        if let clientKey { try CommandLineFile.check(clientKey, flag: "--client-key") }
        validated = overrides
    }
}

import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser

/// `apitest run`'s transport flags: each one given replaces the same setting of every suite and request
/// (`resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy`, `noProxy`; see docs/suite-format.md#transport).
struct TransportFlags: ParsableArguments {
    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Reach HOST:PORT at ADDRESS (repeat), as curl does with this flag.", valueName: "host:port:address"))
    var resolve: [String] = []

    @Option(
        name: .customLong("connect-to"),
        help: ArgumentHelp(
            "Connect to another host and port, as curl --connect-to (repeat).",
            valueName: "host:port:connect-host:connect-port"))
    var connectTo: [String] = []

    @Option(
        name: .customLong("unix-socket"),
        help: ArgumentHelp("Send every request over this unix domain socket.", valueName: "path"), completion: .file())
    var unixSocket: String?

    @Option(
        name: .customLong("http-version"),
        help: ArgumentHelp(
            "1.1, 2 (HTTP/2 over TLS when offered: the default) or 2-prior-knowledge.", valueName: "version"))
    var httpVersion: String?

    @Option(help: ArgumentHelp("Send requests through this proxy URL.", valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("noproxy"),
        help: ArgumentHelp("Hosts reached without the proxy, comma-separated (* for all).", valueName: "hosts"))
    var noProxy: String?

    /// The flags as the runner's overrides, made by ``validate()``; not an argument.
    private(set) var validated: TransportOverrides?

    /// The arguments, for swift-argument-parser; ``validated`` is not one. A new option needs its key here: a debug
    /// build of swift-argument-parser refuses to parse a command while one is missing, so its tests fail.
    private enum CodingKeys: String, CodingKey {
        case resolve, connectTo, unixSocket, httpVersion, proxy, noProxy
    }

    /// Rejects entries libcurl would not take, and HTTP versions it does not speak; keeps the overrides the flags
    /// make, so that no command converts them again.
    mutating func validate() throws {
        for entry in resolve {
            if let problem = TransportEntry.resolveProblem(entry) {
                throw ValidationError("--resolve '\(entry)': \(problem)")
            }
        }
        for entry in connectTo {
            if let problem = TransportEntry.connectToProblem(entry) {
                throw ValidationError("--connect-to '\(entry)': \(problem)")
            }
        }
        let overrides = try converted()
        if unixSocket?.isEmpty == true { throw ValidationError("--unix-socket needs a path") }
        validated = overrides
    }

    /// The flags as the runner's overrides: those ``validate()`` made; flags never validated (not parsed from a
    /// command line) are converted now, the same way.
    func overrides() throws -> TransportOverrides {
        try validated ?? converted()
    }

    /// The one conversion of the flags: what was given, nothing else; `--http-version` read here (a usage error
    /// for a version libcurl does not speak).
    func converted() throws -> TransportOverrides {
        var overrides = TransportOverrides()
        overrides.resolve = resolve.isEmpty ? nil : resolve
        overrides.connectTo = connectTo.isEmpty ? nil : connectTo
        overrides.unixSocket = unixSocket.map { FilePaths.absolute($0, relativeTo: FilePaths.currentDirectory) }
        if let httpVersion {
            guard let version = TransportSpec.HTTPVersion(rawValue: httpVersion) else {
                let problem = TransportSpec.HTTPVersion.problem(httpVersion) ?? "unknown HTTP version"
                throw ValidationError("--http-version \(httpVersion): \(problem)")
            }
            overrides.httpVersion = version
        }
        overrides.proxy = proxy
        overrides.noProxy = noProxy
        return overrides
    }
}

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
        help: ArgumentHelp("Send every request over this unix domain socket.", valueName: "path"))
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

    /// Rejects entries libcurl would not take, and HTTP versions it does not speak.
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
        if let httpVersion, let problem = TransportSpec.HTTPVersion.problem(httpVersion) {
            throw ValidationError("--http-version \(httpVersion): \(problem)")
        }
        if unixSocket?.isEmpty == true { throw ValidationError("--unix-socket needs a path") }
    }

    /// The flags as the runner's overrides: what was given, nothing else.
    func overrides() -> TransportOverrides {
        var overrides = TransportOverrides()
        overrides.resolve = resolve.isEmpty ? nil : resolve
        overrides.connectTo = connectTo.isEmpty ? nil : connectTo
        overrides.unixSocket = unixSocket.map { FilePaths.absolute($0, relativeTo: FilePaths.currentDirectory) }
        overrides.httpVersion = httpVersion.flatMap(TransportSpec.HTTPVersion.init(rawValue:))
        overrides.proxy = proxy
        overrides.noProxy = noProxy
        return overrides
    }
}

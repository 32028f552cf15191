import APITestRunner
import ArgumentParser

/// The per-request time limits `run` and `load` share (`--timeout`, `--connect-timeout`).
struct RequestOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Default time allowed per request (e.g. 500ms, 10s).", valueName: "duration"))
    var timeout: DurationArgument?

    @Option(help: ArgumentHelp("Time allowed to connect (e.g. 2s).", valueName: "duration"))
    var connectTimeout: DurationArgument?

    /// Nothing to check beyond parsing: a malformed duration is refused by ``DurationArgument`` itself.
    mutating func validate() throws {}
}

extension RunOptions {
    /// The request settings of `run` and `load`, made in one place from their shared flags: `jobs` transfers at
    /// once, the time limits, and the TLS and transport flags laid over the suites' settings.
    init(jobs: Int, requests: RequestOptions, security: SecurityFlags, transport: TransportFlags) throws {
        self.init(jobs: jobs)
        timeout = requests.timeout?.duration
        connectTimeout = requests.connectTimeout?.duration
        self.security = try security.overrides()
        self.transport = try transport.overrides()
    }
}

package import APITestHTTP
package import APITestResults
import APITestSecurity
package import APITestSuite

/// A run as a front end asks for it: the selected suites and how to run them.
package struct RunRequest: Sendable {
    /// The suites to run, with only their selected tests.
    package var suites: [Suite]
    /// How to run them; the session's settings are derived from these in one place
    /// (`RunService.sessionConfiguration(for:)`).
    package var options: RunOptions
    /// Whether the single-pin warning applies to the run's own pins (`--pin` given on the command line).
    package var warnsAboutSinglePin = false
    /// Each suite's security policy, as the preflight built them (`Preflight.policies`); the run builds those
    /// missing (all of them when `nil`).
    package var securityPolicies: SecurityPolicies?

    /// A request to run `suites` with `options`.
    package init(suites: [Suite], options: RunOptions) {
        self.suites = suites
        self.options = options
    }
}

/// What stops a run before anything is sent, found by `RunService.preflight(_:)`.
package enum PreflightProblem: Sendable, Hashable {
    /// A suite's `security:` block with the run's TLS flags makes no policy (a bad pin, an unreadable certificate).
    /// `place` is the block's location, or the suite file when the problem comes from the flags alone.
    case securityPolicy(place: String, message: String)
    /// The selected tests use XPath and libxml2 cannot be loaded.
    case xpathUnavailable(reason: String)
}

/// The checks before a run and their findings.
package struct Preflight: Sendable {
    /// What stops the run; empty when it can go.
    package var problems: [PreflightProblem] = []
    /// What the user should hear about but does not stop it (a single pin without a backup).
    package var warnings: [String] = []
    /// The security policies built for the checked suites, for the run (`RunRequest.securityPolicies`): certificate
    /// files are then read once per run.
    package var policies: SecurityPolicies
}

/// The one entry point of a run: preflight checks, then the run on a libcurl session made from the run's options.
/// The command line parses and wires; everything between a loaded suite set and a summary happens here.
package enum RunService {
    // MARK: - Preflight

    /// Builds the security policy of every suite of `loaded` (the request's suites when `nil`; certificate files
    /// are read here, so a bad block fails the run even when the selection leaves its tests out) and checks that
    /// what the selected tests use is available. Nothing is sent.
    package static func preflight(_ request: RunRequest, loaded: [Suite]? = nil) -> Preflight {
        var preflight = policies(
            of: loaded ?? request.suites, options: request.options, warnsAboutSinglePin: request.warnsAboutSinglePin)
        // libxml2 is loaded on first use; a system without it must not turn every XPath check into a failure.
        if request.suites.contains(where: \.usesXPath), let reason = XPathDocument.libraryUnavailability() {
            preflight.problems.append(.xpathUnavailable(reason: reason))
        }
        return preflight
    }

    /// Builds the security policy of each of `suites` under `options`' TLS flags (certificate files are read
    /// here): what `validate` checks, and the first part of `preflight(_:loaded:)`.
    package static func policies(
        of suites: [Suite], options: RunOptions, warnsAboutSinglePin: Bool = false
    ) -> Preflight {
        var policies = SecurityPolicies(overrides: options.security)
        policies.build(for: suites)
        var preflight = Preflight(policies: policies)
        var firstPolicy: SecurityPolicy?
        for suite in suites {
            switch policies.policy(of: suite) {
            case .success(let policy):
                firstPolicy = firstPolicy ?? policy
            case .failure(let error):
                let place = suite.security.map { "\($0.location)" } ?? suite.file
                preflight.problems.append(.securityPolicy(place: place, message: error.message))
            }
        }
        if preflight.problems.isEmpty, warnsAboutSinglePin,
            let warning = firstPolicy?.problems.first(where: { $0.kind == .singlePin })
        {
            preflight.warnings.append(warning.message(in: .plainWords))
        }
        return preflight
    }

    // MARK: - Waiting for hosts

    /// `--wait-for`: waits until every host the request's suites target accepts TCP connections, or `limit` has
    /// passed. The hosts that never did, each as `host:port` with why (`connection refused`), in sorted order; empty
    /// when all are up.
    package static func waitForHosts(
        of request: RunRequest, within limit: Duration
    ) async -> [(
        endpoint: String, cause: String
    )] {
        let endpoints = ReachabilityTargets.endpoints(of: request.suites)
        guard !endpoints.isEmpty else { return [] }
        return await ReachabilityProbe.waitUntilReachable(endpoints, within: limit).map {
            ("\($0.endpoint)", $0.cause)
        }
    }

    // MARK: - Transport set-up

    /// Starts the transport's process-wide set-up (libcurl's and its TLS library's, about half a millisecond) on
    /// another thread, so that it overlaps argument parsing and suite loading. Call ``waitForTransport()`` before
    /// the process exits.
    package static func prepareTransportInBackground() {
        SessionManager.prepareInBackground()
    }

    /// Returns once the transport's set-up has finished (doing it now if nothing started it).
    package static func waitForTransport() {
        SessionManager.waitForPreparation()
    }

    // MARK: - Running

    /// The session settings for a run's options: the one place where run options become client options.
    package static func sessionConfiguration(for options: RunOptions) -> SessionConfiguration {
        var configuration = SessionConfiguration(maxConnections: options.jobs)
        if let timeout = options.timeout { configuration.timeout = timeout }
        if let connectTimeout = options.connectTimeout { configuration.connectTimeout = connectTimeout }
        return configuration
    }

    /// Runs `request` on a new session manager (or on `transport`), reporting to `reporter`, and shuts the session
    /// down. `started` receives a closure that interrupts the run (Ctrl-C), once the run has begun.
    package static func run(
        _ request: RunRequest, reporter: any Reporter, transport: (any HTTPTransport)? = nil,
        started: @Sendable (@escaping @Sendable () -> Void) -> Void = { _ in }
    ) async -> RunSummary {
        // The run's own session, shut down when the run ends; a transport given by the caller stays the caller's.
        var session: SessionManager?
        if transport == nil { session = SessionManager(configuration: sessionConfiguration(for: request.options)) }
        defer { session?.shutdown() }
        let runner = Runner(transport: transport ?? session!, options: request.options)
        let task = Task {
            await runner.run(request.suites, policies: request.securityPolicies, reporter: reporter)
        }
        started { task.cancel() }
        return await task.value
    }
}

package import APITestHTTP
package import APITestResults
package import APITestRunner
package import APITestSuite

/// The entry point of a load run, as `RunService` is of a run: the session made from the options in one place,
/// the run, and the session shut down.
package enum LoadService {
    /// Runs `suites` under `options` on a new session manager (or on `transport`); `started` receives a closure that
    /// interrupts the run (Ctrl-C).
    package static func run(
        _ suites: [Suite], options: LoadOptions, policies: SecurityPolicies? = nil,
        transport: (any HTTPTransport)? = nil,
        progress: @escaping @Sendable (LoadRunner.Progress) -> Void = { _ in },
        started: @Sendable (@escaping @Sendable () -> Void) -> Void = { _ in }
    ) async -> LoadResult {
        var session: SessionManager?
        if transport == nil {
            var configuration = RunService.sessionConfiguration(for: options.run)
            configuration.eventLoops = options.eventLoops
            session = SessionManager(configuration: configuration)
        }
        defer { session?.shutdown() }
        let runner = LoadRunner(transport: transport ?? session!, options: options)
        let task = Task {
            await runner.run(suites, policies: policies, progress: progress)
        }
        started { task.cancel() }
        return await task.value
    }
}

package import APITestHTTP
package import APITestResults
import APITestRunner

// MARK: - From a request

extension LoadService {
    /// The set-up of the load `request` asks for: whether any test can be picked, the model and this shard's share
    /// of it, as many connections as iterations at once, the thresholds (the request's, then the suites'), and the
    /// preflight (`RunService.preflight(_:loaded:)`). Nothing is sent.
    package static func prepare(_ request: LoadRequest) throws(LoadShapeProblem) -> LoadPreparation {
        guard !LoadRunner.pickable(request.suites).isEmpty else { return .nothingToPick }
        var model = try request.shape.model()
        if let shard = request.shard {
            guard let share = model.shard(shard.index, of: shard.count) else {
                if case .closed(let users, _) = model { return .shardWithoutUser(shard, virtualUsers: users) }
                return .shardWithoutUser(shard, virtualUsers: 0)
            }
            model = share
        }
        // As many connections as iterations at once (libcurl's pool is capped at 1,000).
        var concurrency = request.shape.maxInFlight
        if case .closed(let users, _) = model { concurrency = users }
        var run = request.run
        run.jobs = min(1000, max(1, concurrency))
        // Under load every iteration tries again: one refused connection must not fail the rest unsent.
        run.failFastUnreachable = false
        var options = LoadOptions(model: model, maxInFlight: request.shape.maxInFlight, run: run)
        options.thresholds = LoadOptions.thresholds(
            given: try request.shape.parsedThresholds(), suites: request.suites)
        options.abortOnFail = request.shape.abortOnFail
        options.shard = request.shard.map { LoadResult.Model.Shard(index: $0.index, count: $0.count) }
        var runRequest = RunRequest(suites: request.suites, options: run)
        runRequest.warnsAboutSinglePin = request.warnsAboutSinglePin
        let preflight = RunService.preflight(runRequest, loaded: request.loaded)
        return .ready(LoadPreparation.Ready(suites: request.suites, options: options, preflight: preflight))
    }

    /// Runs a prepared load with the policies its preflight built, on a new session manager (or on `transport`);
    /// `started` receives a closure that interrupts it (Ctrl-C).
    package static func run(
        _ load: LoadPreparation.Ready, transport: (any HTTPTransport)? = nil,
        progress: @escaping @Sendable (LoadRunner.Progress) -> Void = { _ in },
        started: @Sendable (@escaping @Sendable () -> Void) -> Void = { _ in }
    ) async -> LoadResult {
        await run(
            load.suites, options: load.options, policies: load.preflight.policies, transport: transport,
            progress: progress, started: started)
    }
}

import APITestResults
import Synchronization

/// Keeps the results of the suites' setup and teardown, the only events of a load run.
final class HookCollector: Reporter, Sendable {
    private let collected = Mutex<[TestResult]>([])

    func handle(_ event: RunEvent) {
        if case .testFinished(let result) = event { collected.withLock { $0.append(result) } }
    }

    var resultDetail: ResultDetail { .failures }

    var results: [TestResult] { collected.withLock { $0 } }
}

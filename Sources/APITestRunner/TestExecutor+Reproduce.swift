import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import Synchronization

extension TestExecutor {
    /// The curl command of `step`'s request (the grpcurl command of a `grpc:` step) as built from `context` and sent
    /// as `sent`; `nil` when the stand-in
    /// renderings fail, which they cannot once the real request was built (the same templates, other values), and
    /// for a request the wire check refuses.
    func reproduce(
        _ step: Step, runtime: SuiteRuntime, context: TemplateContext, sent: HTTPRequest, masker: SecretMasker
    ) -> ReproduceCommand? {
        // A request the wire check refuses (a CR, LF or NUL planted in a header) is never sent, so no command sends
        // it either: the command would do the smuggling the check prevented, and it is no request of the run.
        guard (try? sent.checkWireFields()) != nil else { return nil }
        if let grpc = step.grpc {
            return try? reproducer.grpcCommand(
                for: step, spec: grpc, runtime: runtime, context: context, sent: sent, masker: masker)
        }
        return try? reproducer.command(
            for: step.request, runtime: runtime, context: context, sent: sent, masker: masker)
    }
}

/// Numbers requests in the order they are handed to the transport, across a run's concurrent tests: the order of
/// a `--curl` file.
final class RequestSequence: Sendable {
    private let counter = Atomic<Int>(0)

    /// An empty sequence: the first request gets 1.
    init() {}

    /// The next number.
    func next() -> Int {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

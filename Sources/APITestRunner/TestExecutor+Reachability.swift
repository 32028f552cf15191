import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite

extension TestExecutor {
    /// The result of a step not sent because its host was found unreachable earlier in the run, or `nil` to send it.
    func unreachableResult(
        for request: HTTPRequest, step: Step, index: Int, masker: SecretMasker
    ) -> StepResult? {
        guard let reachability, let mark = reachability.mark(for: request.url) else { return nil }
        let exchange = ExchangeRecorder.record(request, nil, masker: masker, limit: options.bodyPreviewLimit)
        return StepResult(
            index: index, location: step.location, exchange: exchange,
            error: TestError(.unreachable(mark), location: step.request.location))
    }
}

import APITestResults
import APITestSupport

// MARK: - Retrying after a transfer failure

extension TestError {
    /// Whether sending the step again may help: not when its transfer failed for a reason the HTTP layer calls
    /// hopeless (`HTTPError.Reason.isRetryable`, held by the kind).
    var isRetryable: Bool {
        guard case .transfer(let reason) = kind else { return true }
        return reason.isRetryable
    }
}

import APITestHTTP
import APITestResults

// MARK: - Kinds from the HTTP layer's reasons

extension TestError {
    /// Whether sending the step again may help: not when its transfer failed for a reason the HTTP layer calls
    /// hopeless (`HTTPError.Reason.isRetryable`). A transfer kind has its reason's raw value (`Kind(_:)`, checked
    /// for every reason by a test).
    var isRetryable: Bool {
        HTTPError.Reason(rawValue: kind.rawValue)?.isRetryable ?? true
    }
}

extension TestError.Kind {
    /// The kind for a transfer that failed with `reason`: the one conversion from the HTTP layer's reasons.
    init(_ reason: HTTPError.Reason) {
        switch reason {
        case .invalidRequest: self = .invalidRequest
        case .forbiddenCharacter: self = .forbiddenCharacter
        case .dnsFailure: self = .dnsFailure
        case .connectionRefused: self = .connectionRefused
        case .connectionFailed: self = .connectionFailed
        case .connectionReset: self = .connectionReset
        case .emptyReply: self = .emptyReply
        case .timedOut: self = .timedOut
        case .tlsFailure: self = .tlsFailure
        case .pinMismatch: self = .pinMismatch
        case .tooManyRedirects: self = .tooManyRedirects
        case .bodyTooLarge: self = .bodyTooLarge
        case .badContentEncoding: self = .badContentEncoding
        case .bodyFileUnreadable: self = .bodyFileUnreadable
        case .bodyFileChanged: self = .bodyFileChanged
        case .proxyFailure: self = .proxyFailure
        case .cancelled: self = .cancelled
        case .other: self = .other
        }
    }
}

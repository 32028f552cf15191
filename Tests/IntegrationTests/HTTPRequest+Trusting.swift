@testable import APITestHTTP

extension HTTPRequest {
    /// The request verified with `options` instead of the defaults (a test's private CA), without a security
    /// policy: the transport's plain verification path.
    func trusting(_ options: TLSOptions) -> HTTPRequest {
        var request = self
        request.tls = options
        return request
    }
}

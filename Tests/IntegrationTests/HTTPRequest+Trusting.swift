import APITestHTTP
import APITestSecurity

extension HTTPRequest {
    /// The request trusting `caFile` (a test's private CA) instead of the system's trust store, nothing pinned,
    /// through the production API: the security policy the runner sends, built from the model's settings.
    func trusting(caFile: String, validatesDomainName: Bool = true) throws -> HTTPRequest {
        var request = self
        request.security = try SecurityPolicy(
            SecuritySettings(validatesDomainName: validatesDomainName, caFile: caFile))
        return request
    }
}

/// The `auth` of an imported request or of `defaults` (docs/suite-format.md "Authentication"): one kind, its values
/// as written into the suite (placeholders such as `{{ env.API_PASSWORD }}` allowed). `basicAuth` stays
/// ``ImportedRequest/basicAuth``.
package enum ImportedAuth: Sendable, Equatable {
    /// `bearer: TOKEN`: `Authorization: Bearer TOKEN`.
    case bearer(String)
    /// `digest: {user, password}`: libcurl answers the server's Digest challenge.
    case digest(user: String, password: String)
    /// `ntlm: {user, password}`: libcurl's NTLM exchange.
    case ntlm(user: String, password: String)
    /// `awsSigV4: {accessKey, secretKey, sessionToken, region, service}`: libcurl signs the request.
    case awsSigV4(AWSSignature)
    /// `netrc: true` (nil: `~/.netrc`) or `netrc: FILE` (as written into the suite).
    case netrc(file: String?)

    /// The values of `awsSigV4`.
    package struct AWSSignature: Sendable, Equatable {
        /// `accessKey`.
        package var accessKey: String
        /// `secretKey`.
        package var secretKey: String
        /// `sessionToken`, sent as `x-amz-security-token`; nil for long-term credentials.
        package var sessionToken: String?
        /// `region`.
        package var region: String
        /// `service`.
        package var service: String

        /// The signature of `accessKey` and `secretKey` for `service` in `region`.
        package init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String, service: String)
        {
            self.accessKey = accessKey
            self.secretKey = secretKey
            self.sessionToken = sessionToken
            self.region = region
            self.service = service
        }
    }
}

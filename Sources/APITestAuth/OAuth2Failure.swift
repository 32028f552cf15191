package import APITestHTTP
import APITestSecrets

// MARK: - OAuth2Failure

/// Why no access token could be had from an OAuth2 token endpoint. The run keeps the first failure of a grant and
/// errors every step that needs its token with it, without asking the endpoint again.
package struct OAuth2Failure: Error, Sendable, Hashable {
    /// What went wrong.
    package enum Reason: Error, Sendable, Hashable {
        /// The endpoint answered with an error status; `error` and `description` are the RFC 6749 §5.2 fields
        /// when the body had them (already checked to be printable and cut to a sane length).
        case refused(status: Int, error: String?, description: String?)
        /// The endpoint answered 2xx, but not with a usable token.
        case malformedResponse(String)
        /// The endpoint issued a token of a type other than `Bearer`.
        case unsupportedTokenType(String)
        /// The token request could not be sent or its transfer failed.
        case transfer(HTTPError)
        /// The token endpoint's URL could not be resolved.
        case invalidTokenURL(HTTPError)
        /// The run was interrupted while the token was being fetched.
        case interrupted
    }

    /// What went wrong.
    package var reason: Reason
    /// The token endpoint.
    package var tokenURL: String
    /// The grant type asked for (`client_credentials`, `password`, `refresh_token`).
    package var grantType: String

    /// A failure for `reason` of the request of `grantType` to `tokenURL`.
    package init(reason: Reason, tokenURL: String, grantType: String) {
        self.reason = reason
        self.tokenURL = tokenURL
        self.grantType = grantType
    }

    /// A sentence for people.
    package var message: String {
        let prefix = "OAuth2 token request (\(grantType)) to \(tokenURL)"
        let detail: String
        switch reason {
        case .refused(let status, let error, let description):
            var text = "failed with status \(status)"
            if let error { text += ": \(error)" }
            if let description { text += error == nil ? ": \(description)" : " (\(description))" }
            detail = text
        case .malformedResponse(let problem):
            detail = "got no usable token: \(problem)"
        case .unsupportedTokenType(let type):
            detail = "got a token of type '\(type)'; only Bearer tokens are supported"
        case .transfer(let error):
            detail = "failed: \(error.message)"
        case .invalidTokenURL(let error):
            detail = "has no valid URL: \(error.message)"
        case .interrupted:
            return "\(prefix) was interrupted"
        }
        return "\(prefix) \(detail) (not asked again in this run: every step that needs this token errors)"
    }
}

// MARK: - Masking

extension OAuth2Failure.Reason {
    /// This reason with the server's words (`error`, `error_description`, a token type) masked by `masker`.
    func masked(by masker: SecretMasker) -> Self {
        switch self {
        case .refused(let status, let error, let description):
            .refused(status: status, error: masker.mask(error), description: masker.mask(description))
        case .unsupportedTokenType(let type):
            .unsupportedTokenType(masker.mask(type))
        case .malformedResponse, .transfer, .invalidTokenURL, .interrupted:
            self
        }
    }
}

package import APITestHTTP
package import APITestSupport

// MARK: - OAuth2Failure

/// Why no access token could be had from an OAuth2 token endpoint. The run keeps the first failure of a grant and
/// errors every step that needs its token with it, without asking the endpoint again.
package struct OAuth2Failure: Error, Sendable, Hashable {
    /// What went wrong.
    package enum Reason: Error, Sendable, Hashable {
        /// The endpoint answered with an error status; `error` and `description` are the RFC 6749 §5.2 fields
        /// when the body had them (their control characters dropped; whole: ``text`` quotes them, so sealing masks
        /// them before cutting).
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
    /// The secrets of the token request as it was sent (form-encoded, base64 in a Basic header): an endpoint that
    /// echoes the request shows them so, which the step's masker knows only from here. A step that errors with
    /// this failure seals its result with them (`TestExecutor.obtainToken`).
    package var sentSecrets: [String]

    /// A failure for `reason` of the request of `grantType` to `tokenURL`, which carried `sentSecrets`.
    package init(reason: Reason, tokenURL: String, grantType: String, sentSecrets: [String] = []) {
        self.reason = reason
        self.tokenURL = tokenURL
        self.grantType = grantType
        self.sentSecrets = sentSecrets
    }

    /// The longest `error` of the endpoint's answer a message shows, in characters.
    static let errorLimit = 80
    /// The longest `error_description` a message shows, in characters.
    static let descriptionLimit = 300
    /// The longest token type a message shows, in characters.
    static let typeLimit = 40

    /// A sentence for people, quoting the server's words (masked whole and then cut where the step is sealed).
    package var text: MessageText {
        let prefix = "OAuth2 token request (\(grantType)) to \(tokenURL)"
        let detail: MessageText
        switch reason {
        case .refused(let status, let error, let description):
            var text: MessageText = "failed with status \(status)"
            if let error { text = "\(text): \(quoting: error, limit: Self.errorLimit)" }
            if let description {
                let quoted: MessageText = "\(quoting: description, limit: Self.descriptionLimit)"
                text = error == nil ? "\(text): \(quoted)" : "\(text) (\(quoted))"
            }
            detail = text
        case .malformedResponse(let problem):
            detail = "got no usable token: \(problem)"
        case .unsupportedTokenType(let type):
            detail = "got a token of type '\(quoting: type, limit: Self.typeLimit)'; only Bearer tokens are supported"
        case .transfer(let error):
            detail = "failed: \(error.message)"
        case .invalidTokenURL(let error):
            detail = "has no valid URL: \(error.message)"
        case .interrupted:
            return "\(prefix) was interrupted"
        }
        return "\(prefix) \(detail) (not asked again in this run: every step that needs this token errors)"
    }

    /// ``text`` with every value whole: for a message that is no step's result.
    package var message: String { text.description }
}

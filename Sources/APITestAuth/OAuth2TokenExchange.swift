package import APITestHTTP

// MARK: - OAuth2TokenExchange

/// A token request as it was sent and what came back, for a step that shows every exchange (`--verbose`): the
/// step that sent it records it beside its own request, masked with the secrets as the request carried them.
package struct OAuth2TokenExchange: Sendable {
    /// The token request as sent.
    package var request: HTTPRequest
    /// The endpoint's response; `nil` when the transfer failed.
    package var response: HTTPResponse?
    /// The request's secrets as it carried them (form-encoded, base64 in a Basic header), for the step's masker.
    package var sentSecrets: [String]

    /// The exchange of `request`, answered with `response`, which carried `sentSecrets`.
    package init(request: HTTPRequest, response: HTTPResponse?, sentSecrets: [String]) {
        self.request = request
        self.response = response
        self.sentSecrets = sentSecrets
    }
}

package import APITestHTTP

// MARK: - OAuth2TokenRequest

/// A token request and the secret texts it sends as they go on the wire.
///
/// RFC 6749 §2.3.1 form-encodes the client id and secret before they are joined and base64-encoded into the `Basic`
/// header, and the form body percent-encodes every secret field: a server that echoes what it got (in an
/// `error_description`) shows these spellings, not the secrets as the suite wrote them. So the masker is given the
/// bytes that were sent, built from the very values the request holds (it derives its other spellings, base64 at
/// any offset, hex and case, from them), not a list of encodings guessed beforehand.
package struct OAuth2TokenRequest: Sendable {
    /// The request.
    package var request: HTTPRequest
    /// Every secret the request carries, as written and as sent: the whole `Basic` token, the form-encoded
    /// `id:secret` pair it encodes and the form-encoded secret; each secret field's form-encoded value.
    package var sentSecrets: [String]

    /// `request`, which carries `sentSecrets`.
    package init(request: HTTPRequest, sentSecrets: [String]) {
        self.request = request
        self.sentSecrets = sentSecrets
    }
}

package import APITestHTTP
import APITestJSON
import APITestSecrets
import APITestSupport

// MARK: - OAuth2TokenClient

/// Sends token requests over the run's transport, built for one suite (its TLS policy and transport settings), and
/// reads the endpoint's answer (RFC 6749 §5.1, §5.2).
package struct OAuth2TokenClient: OAuth2TokenFetching {
    /// The run's transport.
    let transport: any HTTPTransport
    /// Builds the token request of a grant for the suite whose step needs the token (the runner's request builder:
    /// the suite's policy and transport settings).
    let makeRequest: @Sendable (OAuth2Grant, OAuth2FetchKind) throws -> OAuth2TokenRequest
    /// Told of every token request sent and its answer (for `--verbose`); `nil` when no one looks.
    let observer: (@Sendable (OAuth2TokenExchange) -> Void)?

    /// A client sending over `transport` the token requests `makeRequest` builds, telling `observer` of each.
    package init(
        transport: any HTTPTransport, observer: (@Sendable (OAuth2TokenExchange) -> Void)? = nil,
        makeRequest: @escaping @Sendable (OAuth2Grant, OAuth2FetchKind) throws -> OAuth2TokenRequest
    ) {
        self.transport = transport
        self.observer = observer
        self.makeRequest = makeRequest
    }

    /// Sends the token request of `grant` for `kind` and reads the answer; a failure names the endpoint and grant type.
    package func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure> {
        let grantType = OAuth2Grant.grantType(of: grant.flow, kind)
        func failure(_ reason: OAuth2Failure.Reason) -> Result<OAuth2Token, OAuth2Failure> {
            .failure(OAuth2Failure(reason: reason, tokenURL: grant.tokenURL, grantType: grantType))
        }
        let tokenRequest: OAuth2TokenRequest
        do {
            tokenRequest = try makeRequest(grant, kind)
        } catch let error as HTTPError {
            return failure(.invalidTokenURL(error))
        } catch {
            return failure(.malformedResponse("the token request could not be built: \(error)"))
        }
        // What the endpoint says goes into messages: an endpoint that echoes the request shows the secrets as they
        // were sent (form-encoded, base64), which the step's masker knows only from the request itself, so the
        // failure (and the exchange the observer is told of) carries them to where the step is sealed.
        let sentSecrets = tokenRequest.sentSecrets.filter { $0.utf8.count >= SecretMasker.shortestCredential }
        // Taken before sending: the token's lifetime counts from no later than the server's clock started it.
        let sent = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport.perform(tokenRequest.request)
        } catch let error as HTTPError {
            observer?(OAuth2TokenExchange(request: tokenRequest.request, response: nil, sentSecrets: sentSecrets))
            return failure(.transfer(error))
        } catch {
            return failure(.interrupted)
        }
        observer?(OAuth2TokenExchange(request: tokenRequest.request, response: response, sentSecrets: sentSecrets))
        return Self.token(from: response, sentAt: sent).mapError {
            OAuth2Failure(reason: $0, tokenURL: grant.tokenURL, grantType: grantType, sentSecrets: sentSecrets)
        }
    }

    /// The token of a token endpoint's `response`, or why it holds none.
    static func token(
        from response: HTTPResponse, sentAt sent: ContinuousClock.Instant
    ) -> Result<OAuth2Token, OAuth2Failure.Reason> {
        let object = (try? JSONParser.parse(response.body)).flatMap { value -> JSONObject? in
            if case .object(let object) = value { object } else { nil }
        }
        guard (200..<300).contains(response.statusCode) else {
            return .failure(
                .refused(
                    status: response.statusCode, error: printable(object?["error"]),
                    description: printable(object?["error_description"])))
        }
        guard let object else { return .failure(.malformedResponse("the body is not a JSON object")) }
        guard case .string(let accessToken)? = object["access_token"], !accessToken.isEmpty else {
            return .failure(.malformedResponse("'access_token' is missing or not a non-empty string"))
        }
        // The token goes into an Authorization header: visible ASCII only (RFC 6750's b64token is narrower).
        guard accessToken.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .failure(.malformedResponse("'access_token' holds characters a header cannot carry"))
        }
        if let type = object["token_type"] {
            guard case .string(let name) = type else {
                return .failure(.malformedResponse("'token_type' is not a string"))
            }
            guard name.lowercased() == "bearer" else {
                return .failure(.unsupportedTokenType(printable(type) ?? "?"))
            }
        }
        var renewAt: ContinuousClock.Instant?
        if let expiresIn = object["expires_in"] {
            // A number, or (some providers) a number in a string.
            let seconds: Double?
            switch expiresIn {
            case .string(let text): seconds = Double(text)
            default: seconds = expiresIn.doubleValue
            }
            guard let seconds, seconds.isFinite, seconds > 0, seconds <= 400 * 86_400 else {
                return .failure(.malformedResponse("'expires_in' is not a positive number of seconds"))
            }
            let lifetime = Duration.milliseconds(Int64(seconds * 1000))
            renewAt = sent + lifetime - OAuth2Token.renewalMargin(lifetime: lifetime)
        }
        var refreshToken: String?
        if case .string(let refresh)? = object["refresh_token"], !refresh.isEmpty { refreshToken = refresh }
        return .success(OAuth2Token(accessToken: accessToken, refreshToken: refreshToken, renewAt: renewAt))
    }

    /// The most characters of a server's string kept for a message: far more than any message shows (sealing cuts
    /// the quoted value to a few hundred after masking it), so a secret is never cut where a message could show
    /// part of it; the bound keeps a failure the run holds for every step of a grant small.
    static let keptCharacters = 16_384

    /// A server's string for a message: only when it is a string, its control characters dropped (the message goes
    /// to terminals and reports). Whole up to ``keptCharacters``: the message quotes it, and sealing masks it
    /// before cutting it.
    private static func printable(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        let cleaned = String(
            text.unicodeScalars.lazy.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
                .prefix(keptCharacters).map(Character.init))
        return cleaned.isEmpty ? nil : cleaned
    }
}

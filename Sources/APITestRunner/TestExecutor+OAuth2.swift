import APITestAuth
import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport

// MARK: - OAuth2

extension TestExecutor {
    /// The token a request sends and where it came from.
    struct OAuth2Use: Sendable {
        /// The grant it was issued for.
        var grant: OAuth2Grant
        /// The token.
        var token: OAuth2Token
        /// Sends the suite's token requests.
        var client: OAuth2TokenClient
        /// What `client` sent and got, when every exchange is shown.
        var log: OAuth2ExchangeLog?
    }

    /// The token of `oauth2`, the setting `spec` authenticates with (`RequestBuilder.oauth2(of:defaults:)`), from
    /// the run's store: the grant's secrets and the token join `masker`, or, when there is no token, the secrets
    /// as the token request sent them (which the endpoint's answer in the error may echo).
    ///
    /// The token requests sent for it go into `exchanges` when the run shows every exchange (their secrets as they
    /// were sent join `masker` then).
    func obtainToken(
        _ oauth2: OAuth2Spec, for spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext,
        masker: inout SecretMasker, exchanges: inout [ExchangeDraft]
    ) async throws(TestError) -> OAuth2Use {
        let grant: OAuth2Grant
        do {
            grant = try builder.grant(of: oauth2, runtime: runtime, context: context)
        } catch let error as TemplateError {
            throw TestError(.template(error), location: spec.location)
        } catch let error as HTTPError {
            throw TestError(
                .authentication(
                    OAuth2Failure(
                        reason: .invalidTokenURL(error), tokenURL: oauth2.tokenURL.source,
                        grantType: OAuth2Grant.grantType(of: oauth2.flow, .grant))),
                location: oauth2.tokenURL.location)
        } catch {
            throw TestError(.request(error), location: spec.location)
        }
        masker = masker.adding(grant.secrets.filter { $0.utf8.count >= SecretMasker.shortestCredential })
        let log = resultDetail == .everyStep ? OAuth2ExchangeLog() : nil
        let client = OAuth2TokenClient(transport: transport, builder: builder, runtime: runtime, log: log)
        let result = await tokens.token(for: grant, fetcher: client)
        switch result {
        case .success(let token):
            masker = masker.adding(token.secrets.filter { $0.utf8.count >= SecretMasker.shortestCredential })
        case .failure(let failure):
            masker = masker.adding(failure.sentSecrets)
        }
        take(log, into: &exchanges, masker: &masker)
        switch result {
        case .success(let token): return OAuth2Use(grant: grant, token: token, client: client, log: log)
        case .failure(let failure): throw TestError(.authentication(failure), location: spec.location)
        }
    }

    /// The token requests `log` kept, as drafts of exchanges appended to `exchanges`; their secrets as they were
    /// sent join `masker`, which seals them with the step.
    private func take(_ log: OAuth2ExchangeLog?, into exchanges: inout [ExchangeDraft], masker: inout SecretMasker) {
        guard let taken = log?.take(), !taken.isEmpty else { return }
        for exchange in taken {
            let answered = exchange.responseSecrets.filter { $0.utf8.count >= SecretMasker.shortestCredential }
            masker = masker.adding(exchange.sentSecrets + answered)
        }
        for exchange in taken {
            exchanges.append(
                ExchangeRecorder.record(
                    exchange.request, exchange.response, limit: options.bodyPreviewLimit, masker: masker))
        }
    }

    /// A token to send instead of `use.token`, which a server refused; the new token's secrets join `masker`, or,
    /// when there is none, the secrets as the token request sent them.
    func renewToken(
        _ use: OAuth2Use, masker: inout SecretMasker, exchanges: inout [ExchangeDraft]
    ) async -> Result<OAuth2Use, TestError> {
        let result = await tokens.replacement(for: use.token, grant: use.grant, fetcher: use.client)
        switch result {
        case .success(let token):
            masker = masker.adding(token.secrets.filter { $0.utf8.count >= SecretMasker.shortestCredential })
        case .failure(let failure):
            masker = masker.adding(failure.sentSecrets)
        }
        take(use.log, into: &exchanges, masker: &masker)
        switch result {
        case .success(let token):
            var renewed = use
            renewed.token = token
            return .success(renewed)
        case .failure(let failure):
            return .failure(TestError(.authentication(failure), location: nil))
        }
    }

    /// Whether `response` refuses the bearer token it was sent as invalid: `401` with a `WWW-Authenticate: Bearer`
    /// challenge whose `error` is `invalid_token` (RFC 6750 §3.1).
    static func rejectsToken(_ response: HTTPResponse) -> Bool {
        guard response.statusCode == 401 else { return false }
        return response.headers.values(for: "WWW-Authenticate").contains { challenge in
            BearerChallenge.error(in: challenge) == "invalid_token"
        }
    }
}

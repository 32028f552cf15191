import APITestAuth
import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite

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
    }

    /// The token of `oauth2`, the setting `spec` authenticates with (`RequestBuilder.oauth2(of:defaults:)`), from
    /// the run's store: the grant's secrets and the token join `masker`, or, when there is no token, the secrets
    /// as the token request sent them (which the endpoint's answer in the error may echo).
    func obtainToken(
        _ oauth2: OAuth2Spec, for spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext,
        masker: inout SecretMasker
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
        let client = OAuth2TokenClient(transport: transport, builder: builder, runtime: runtime)
        switch await tokens.token(for: grant, fetcher: client) {
        case .success(let token):
            masker = masker.adding(token.secrets.filter { $0.utf8.count >= SecretMasker.shortestCredential })
            return OAuth2Use(grant: grant, token: token, client: client)
        case .failure(let failure):
            masker = masker.adding(failure.sentSecrets)
            throw TestError(.authentication(failure), location: spec.location)
        }
    }

    /// A token to send instead of `use.token`, which a server refused; the new token's secrets join `masker`, or,
    /// when there is none, the secrets as the token request sent them.
    func renewToken(_ use: OAuth2Use, masker: inout SecretMasker) async -> Result<OAuth2Use, TestError> {
        switch await tokens.replacement(for: use.token, grant: use.grant, fetcher: use.client) {
        case .success(let token):
            masker = masker.adding(token.secrets.filter { $0.utf8.count >= SecretMasker.shortestCredential })
            var renewed = use
            renewed.token = token
            return .success(renewed)
        case .failure(let failure):
            masker = masker.adding(failure.sentSecrets)
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

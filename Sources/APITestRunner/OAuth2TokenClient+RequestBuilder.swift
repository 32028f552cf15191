import APITestAuth
import APITestHTTP

// MARK: - Token requests built by the runner

extension OAuth2TokenClient {
    /// A client sending over `transport` the token requests `builder` builds for the suite of `runtime` (its
    /// `security:` policy, its `defaults` transport settings and the run's transport flags).
    init(transport: any HTTPTransport, builder: RequestBuilder, runtime: SuiteRuntime) {
        self.init(transport: transport) { grant, kind in
            try builder.tokenRequest(for: grant, kind, runtime: runtime)
        }
    }
}

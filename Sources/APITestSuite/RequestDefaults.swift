/// Request settings that apply to every request of a suite unless the request sets its own.
package struct RequestDefaults: Sendable, Hashable {
    /// Headers sent with every request; a request header of the same name (case-insensitive) replaces one.
    package var headers: [HeaderSpec]
    package var timeout: Duration?
    package var followRedirects: Bool
    package var maxRedirects: Int?
    /// `compressed`: whether requests ask for a compressed response (`Accept-Encoding` with every encoding libcurl
    /// decodes) and have it decoded; nil for the default, true.
    package var compressed: Bool?
    /// The retry of every step that sets none of its own.
    package var retry: RetrySpec?
    /// The most bytes of a response body kept in memory (`maxResponseSize`), `0` for no limit; `nil` for the run's
    /// (`--max-response-size`, 64 MiB by default).
    package var maxResponseSize: Int?
    /// `auth:` of every request that has none of its own.
    package var auth: AuthSpec?
    /// The transport settings of every request, each replaced by the request's own.
    package var transport: TransportSpec?

    package init(
        headers: [HeaderSpec] = [], timeout: Duration? = nil, followRedirects: Bool = true, maxRedirects: Int? = nil
    ) {
        self.headers = headers
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
    }
}

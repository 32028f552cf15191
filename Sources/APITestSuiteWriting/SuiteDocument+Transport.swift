// MARK: - Transport

extension SuiteDocument {
    /// The transport keys of a request or of `defaults` (docs/suite-format.md "Transport"): where and how
    /// requests connect. Values are as written into the suite; nil or empty writes nothing.
    package struct Transport: Sendable, Equatable {
        /// `resolve`: `host:port:address[,address…]` entries.
        package var resolve: [String] = []
        /// `connectTo`: `host:port:connect-host:connect-port` entries.
        package var connectTo: [String] = []
        /// `unixSocket`: a path as written into the suite (relative to its folder, or absolute).
        package var unixSocket: String?
        /// `httpVersion`: `1.1`, `2` or `2-prior-knowledge`.
        package var httpVersion: String?
        /// `proxy`: a proxy URL.
        package var proxy: String?
        /// `noProxy`: host names, domains or addresses reached without the proxy.
        package var noProxy: String?

        /// No setting.
        package init() {}

        /// Whether nothing is set.
        package var isEmpty: Bool {
            self == Transport()
        }
    }
}

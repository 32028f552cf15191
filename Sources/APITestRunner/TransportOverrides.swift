package import APITestSuite

/// The run's transport settings from the command line (`--resolve`, `--connect-to`, `--unix-socket`,
/// `--http-version`, `--proxy`, `--noproxy`): each one set replaces the same setting of every suite and request.
package struct TransportOverrides: Sendable, Hashable {
    /// `--resolve` entries.
    package var resolve: [String]?
    /// `--connect-to` entries.
    package var connectTo: [String]?
    /// `--unix-socket`, an absolute path.
    package var unixSocket: String?
    /// `--http-version`.
    package var httpVersion: TransportSpec.HTTPVersion?
    /// `--proxy`.
    package var proxy: String?
    /// `--noproxy`.
    package var noProxy: String?

    /// Nothing overridden.
    package init() {}

    /// Whether nothing is overridden.
    package var isEmpty: Bool { self == TransportOverrides() }
}

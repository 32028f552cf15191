import Foundation

/// Where a URL's requests connect: scheme, host and port (the default port of the scheme when none is given).
public struct HostEndpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var scheme: String
    /// The host name or address, without the brackets of an IPv6 literal.
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// The endpoint of an absolute `http` or `https` URL, or `nil` for anything else.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.init(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80))
    }

    /// `host:port`, with an IPv6 literal in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public static func < (lhs: HostEndpoint, rhs: HostEndpoint) -> Bool {
        (lhs.host, lhs.port, lhs.scheme) < (rhs.host, rhs.port, rhs.scheme)
    }
}

import APITestSupport

/// Where and how requests connect, from a request or `defaults`: `resolve`, `connectTo`, `unixSocket`,
/// `httpVersion`, `proxy` and `noProxy`. A request's setting replaces the same setting of `defaults`; `run`'s flags
/// replace both.
package struct TransportSpec: Sendable, Hashable {
    /// The HTTP versions a request may use.
    package enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
        /// HTTP/1.1 only.
        case http11 = "1.1"
        /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise (the default).
        case http2 = "2"
        /// HTTP/2 without asking first, also over plain TCP.
        case http2PriorKnowledge = "2-prior-knowledge"
    }

    /// `host:port:address[,address...]` entries: the host name reached at the addresses.
    package var resolve: [Template]?
    /// `host:port:connect-host:connect-port` entries: the connection made elsewhere, under the URL's host name.
    package var connectTo: [Template]?
    /// A unix domain socket (absolute path) that carries every connection.
    package var unixSocket: String?
    /// The allowed HTTP versions.
    package var httpVersion: HTTPVersion?
    /// A proxy URL.
    package var proxy: Template?
    /// Hosts reached without the proxy (comma-separated, `*` for all).
    package var noProxy: Template?

    /// The keys, as written in a request or `defaults`.
    package enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case resolve, connectTo, unixSocket, httpVersion, proxy, noProxy
    }

    /// The keys, as written in a request or `defaults`.
    package static let keys = Key.names

    /// No setting.
    package init() {}

    /// Every template of the settings, in order.
    package var templates: [Template] {
        (resolve ?? []) + (connectTo ?? []) + [proxy, noProxy].compactMap { $0 }
    }

    /// Whether nothing is set.
    package var isEmpty: Bool { self == TransportSpec() }

    /// These settings where set, `fallback`'s elsewhere.
    package func over(_ fallback: TransportSpec?) -> TransportSpec {
        guard let fallback else { return self }
        var merged = self
        merged.resolve = resolve ?? fallback.resolve
        merged.connectTo = connectTo ?? fallback.connectTo
        merged.unixSocket = unixSocket ?? fallback.unixSocket
        merged.httpVersion = httpVersion ?? fallback.httpVersion
        merged.proxy = proxy ?? fallback.proxy
        merged.noProxy = noProxy ?? fallback.noProxy
        return merged
    }
}

extension TransportSpec.HTTPVersion {
    /// What is wrong with `text` as an HTTP version (the suite's `httpVersion`, `run --http-version`), or nil when
    /// it names one.
    package static func problem(_ text: String) -> String? {
        guard Self(rawValue: text) == nil else { return nil }
        let allowed = allCases.map(\.rawValue)
        if text == "3" || text.hasPrefix("3-") {
            return "HTTP/3 is not available: the libcurl apitest runs on (Debian's 7.88) is built without it; use "
                + allowed.joined(separator: ", ")
        }
        return "unknown HTTP version '\(text)'; use \(allowed.joined(separator: ", "))"
            + Suggestion.didYouMean(text, in: allowed)
    }
}

import CTLSShim
import Foundation

/// Certificate facts per TLS connection, so that reused connections report the same chain without parsing it
/// again. Used on the event-loop thread only.
final class PeerCertificateCache {
    private var byConnection: [UInt: [CertificateInfo]] = [:]
    private let limit: Int

    init(limit: Int) {
        self.limit = max(16, limit * 4)
    }

    /// The certificates the server sent on the connection `easy` uses now, leaf first; empty for plain HTTP.
    func certificates(for easy: UnsafeMutableRawPointer) -> [CertificateInfo] {
        guard let ssl = apitest_easy_ssl(easy) else { return [] }
        let id = apitest_ssl_connection_id(ssl)
        if let known = byConnection[id] { return known }
        guard let list = apitest_certs_from_ssl(ssl) else { return [] }
        defer { apitest_certs_free(list) }
        let infos = CertificateList.infos(of: list)
        if byConnection.count >= limit { byConnection.removeAll(keepingCapacity: true) }
        byConnection[id] = infos
        return infos
    }
}

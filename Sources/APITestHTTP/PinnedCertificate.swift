public import Foundation

/// A certificate's facts with its DER encoding, as pinned in `certificate` mode.
public struct PinnedCertificate: Sendable, Hashable {
    public var der: Data
    public var info: CertificateInfo

    /// A certificate OpenSSL read (``load(contentsOf:)``): its DER encoding and its facts.
    init(der: Data, info: CertificateInfo) {
        self.der = der
        self.info = info
    }
}

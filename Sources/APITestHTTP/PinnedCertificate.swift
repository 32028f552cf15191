import CTLSShim
public import Foundation

/// A certificate's facts with its DER encoding, as pinned in `certificate` mode.
public struct PinnedCertificate: Sendable, Hashable {
    public var der: Data
    public var info: CertificateInfo

    /// Parses one certificate (the first found) from PEM or DER bytes.
    public init(data: Data) throws(SecurityPolicyError) {
        var message = [CChar](repeating: 0, count: 256)
        let list = data.withUnsafeBytes { bytes in
            apitest_certs_from_data(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &message, message.count)
        }
        guard let list else { throw SecurityPolicyError("no PEM or DER certificate found") }
        defer { apitest_certs_free(list) }
        guard let first = CertificateList.certificates(of: list).first else {
            throw SecurityPolicyError("no PEM or DER certificate found")
        }
        self = first
    }

    init(der: Data, info: CertificateInfo) {
        self.der = der
        self.info = info
    }
}

import CTLSShim
import Foundation

extension PinnedCertificate {
    /// Every certificate of a PEM file (several allowed) or a DER file, with its DER encoding.
    public static func load(contentsOf path: String) throws(SecurityPolicyError) -> [PinnedCertificate] {
        var message = [CChar](repeating: 0, count: 256)
        guard let list = apitest_certs_load_file(path, &message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw SecurityPolicyError("cannot read certificates from '\(path)': \(reason)")
        }
        defer { apitest_certs_free(list) }
        return CertificateList.certificates(of: list)
    }
}

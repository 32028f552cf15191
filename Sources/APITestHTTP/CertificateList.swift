import APITestSecurity
import CTLSShim
import Foundation

/// Reads `apitest_certs` lists into Swift values.
enum CertificateList {
    static func certificates(of list: OpaquePointer) -> [PinnedCertificate] {
        (0..<apitest_certs_count(list)).compactMap { index in
            var facts = apitest_cert_facts()
            guard apitest_certs_facts(list, index, &facts) != 0 else { return nil }
            defer { apitest_cert_facts_free(&facts) }
            return PinnedCertificate(
                der: facts.der.map { Data(bytes: $0, count: facts.der_length) } ?? Data(), info: info(of: facts))
        }
    }

    static func infos(of list: OpaquePointer) -> [CertificateInfo] {
        (0..<apitest_certs_count(list)).compactMap { index in
            var facts = apitest_cert_facts()
            guard apitest_certs_facts(list, index, &facts) != 0 else { return nil }
            defer { apitest_cert_facts_free(&facts) }
            return info(of: facts)
        }
    }

    private static func info(of facts: apitest_cert_facts) -> CertificateInfo {
        let sha256 = withUnsafeBytes(of: facts.sha256) { Array($0) }
        let spki = withUnsafeBytes(of: facts.spki_sha256) { Array($0) }
        let sans = facts.sans.map { String(cString: $0) } ?? ""
        return CertificateInfo(
            subject: facts.subject.map { String(cString: $0) } ?? "",
            issuer: facts.issuer.map { String(cString: $0) } ?? "",
            notBefore: Date(timeIntervalSince1970: TimeInterval(facts.not_before)),
            notAfter: Date(timeIntervalSince1970: TimeInterval(facts.not_after)),
            serialNumber: facts.serial.map { String(cString: $0) } ?? "",
            subjectAlternativeNames: sans.split(separator: "\n").map(String.init),
            sha256Fingerprint: sha256.map { hexByte($0) }.joined(separator: ":"),
            publicKey: PublicKeyPin(sha256: spki))
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

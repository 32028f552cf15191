import CTLSShim
import Foundation

/// The facts of one X.509 certificate: names, validity, fingerprints and the public-key pin.
public struct CertificateInfo: Sendable, Hashable {
    /// The subject as a one-line RFC 2253 string (`CN=localhost,O=Example`).
    public var subject: String
    /// The issuer, in the same form as `subject`.
    public var issuer: String
    public var notBefore: Date
    public var notAfter: Date
    /// The serial number in upper-case hex.
    public var serialNumber: String
    /// Subject alternative names (`DNS:localhost`, `IP:127.0.0.1`).
    public var subjectAlternativeNames: [String]
    /// The SHA-256 of the DER certificate as colon-separated upper-case hex (`AB:CD:...`), as `openssl x509
    /// -fingerprint -sha256` prints it.
    public var sha256Fingerprint: String
    /// The curl-format pin of the certificate's public key: `sha256//` + base64 of the SHA-256 of its DER
    /// SubjectPublicKeyInfo.
    public var publicKeyPin: String

    public init(
        subject: String, issuer: String, notBefore: Date, notAfter: Date, serialNumber: String,
        subjectAlternativeNames: [String], sha256Fingerprint: String, publicKeyPin: String
    ) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = serialNumber
        self.subjectAlternativeNames = subjectAlternativeNames
        self.sha256Fingerprint = sha256Fingerprint
        self.publicKeyPin = publicKeyPin
    }

    /// Whether the certificate names itself as its issuer.
    public var isSelfIssued: Bool { subject == issuer }

    /// Whole days from `date` until `notAfter` (negative once expired).
    public func daysLeft(from date: Date = Date()) -> Int {
        Int((notAfter.timeIntervalSince(date) / 86_400).rounded(.down))
    }
}

// MARK: - Reading certificates with OpenSSL

extension CertificateInfo {
    /// Every certificate of a PEM file (several allowed) or a DER file, in file order.
    public static func load(contentsOf path: String) throws(SecurityPolicyError) -> [CertificateInfo] {
        try PinnedCertificate.load(contentsOf: path).map(\.info)
    }
}

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
            publicKeyPin: PinnedKey(sha256: spki).description)
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

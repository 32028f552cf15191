/// One setting of a `security:` block (the raw value is its key in a suite): what a ``SecurityProblem`` concerns,
/// so that the suite parser can point at the key and the flags can name their flag.
public enum SecuritySetting: String, Sendable, Hashable, CaseIterable {
    case pinning, pins, certificates, allowInvalidCertificates, validatesDomainName, caFile, clientCertificate
    case clientKey, hosts
}

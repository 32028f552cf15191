/// The words of every ``SecurityProblem``: the one place they are written.
extension SecurityProblem: CustomStringConvertible {
    /// Whose words a problem is told in.
    public enum Vocabulary: Sendable, Hashable {
        /// A suite's `security:` keys (`'pins'`, `'pinning: certificate'`), with a note where one helps.
        case suiteKeys
        /// Plain words, for a policy made of a suite's block and the command line's flags, or of the flags alone.
        case plainWords
    }

    /// The sentence for the problem.
    public func message(in vocabulary: Vocabulary) -> String {
        let suite = vocabulary == .suiteKeys
        switch kind {
        case .notAPin(let text):
            return "'\(text)' is not a pin; pins look like sha256//<base64 of the SHA-256 of the public key>"
        case .pinNotBase64(let text):
            return "the pin '\(text)' is not valid base64"
        case .pinLength(let text, let bytes):
            return "the pin '\(text)' holds \(bytes) bytes; a SHA-256 pin holds 32 (44 base64 characters)"
        case .ignored(let setting, .certificate):
            return suite
                ? "'\(setting.rawValue)' has no effect with 'pinning: certificate'"
                : "\(setting.rawValue) have no effect in certificate mode"
        case .ignored(let setting, let mode):
            return suite
                ? "'\(setting.rawValue)' has no effect while 'pinning' is \(mode.rawValue)"
                : "\(setting.rawValue) have no effect while pinning is \(mode.rawValue)"
        case .publicKeyNeedsPins:
            return suite
                ? "pinning 'publicKey' needs 'pins' or 'certificates'"
                : "pinning 'publicKey' needs at least one pin or certificate"
        case .certificateNeedsCertificates:
            return suite
                ? "pinning 'certificate' needs 'certificates'" : "pinning 'certificate' needs at least one certificate"
        case .invalidCertificatesNeedPin:
            return suite
                ? "'allowInvalidCertificates' with 'validatesDomainName' needs a pin: a self-signed certificate can "
                    + "only be trusted through a pin"
                : "to validate the domain name of a self-signed or otherwise invalid certificate you must pin it: "
                    + "set 'pinning' with 'pins' or 'certificates', or turn 'validatesDomainName' off"
        case .clientKeyNeedsCertificate:
            return suite ? "'clientKey' needs a 'clientCertificate'" : "a client key needs a client certificate"
        case .singlePin:
            return suite
                ? "only one pin: add a backup pin (a key not yet in use, or the CA's key)"
                : "only one pin: add a backup pin (a key not yet in use, or the CA's), or a key rotation will lock "
                    + "clients out; TrustKit requires two"
        }
    }

    /// What to do about it, shown under a suite's diagnostic; plain words say it in the message.
    public func note(in vocabulary: Vocabulary) -> String? {
        guard vocabulary == .suiteKeys else { return nil }
        switch kind {
        case .ignored(_, .certificate):
            return "certificate mode compares whole certificates; use 'pinning: publicKey' for key pins"
        case .ignored:
            return "set 'pinning: publicKey' or 'pinning: certificate' to check them"
        case .invalidCertificatesNeedPin:
            return "pin the certificate or its key, or set 'validatesDomainName: false'"
        case .singlePin:
            return "a key rotation would otherwise lock out every client that ships this pin; TrustKit requires two"
        default:
            return nil
        }
    }

    /// The message in plain words.
    public var description: String { message(in: .plainWords) }
}

import APITestHTTP
import APITestReporting
import APITestSupport
import Foundation

/// What `apitest pin-check` found, and its text and JSON renderings.
struct PinCheckReport {
    let url: String
    let policy: SecurityPolicy
    let evaluation: TLSEvaluation?
    let connectionError: String?
    let minDays: Int?
    let now: Date

    init(url: String, policy: SecurityPolicy, evaluation: TLSEvaluation, minDays: Int?, now: Date) {
        self.url = url
        self.policy = policy
        self.evaluation = evaluation
        self.connectionError = nil
        self.minDays = minDays
        self.now = now
    }

    init(url: String, policy: SecurityPolicy, connectionError: String) {
        self.url = url
        self.policy = policy
        self.evaluation = nil
        self.connectionError = connectionError
        self.minDays = nil
        self.now = Date()
    }

    var chain: [CertificateInfo] { evaluation?.chain ?? [] }

    /// The certificates that expire within `minDays`, with their depth.
    var expiring: [(depth: Int, certificate: CertificateInfo)] {
        guard let minDays else { return [] }
        return chain.enumerated().filter { $0.element.daysLeft(from: now) < minDays }.map { ($0.offset, $0.element) }
    }

    var status: PinCheckCommand.Status {
        guard let evaluation, connectionError == nil else { return .connectionFailed }
        switch evaluation.verdict {
        case .pinMismatch: return .pinMismatch
        case .certificateInvalid: return .certificateInvalid
        case .notEvaluated: return .connectionFailed
        case .trusted: return expiring.isEmpty ? .matched : .expiring
        }
    }

    /// The pins checked, as shown: keys in `publicKey` mode, the pinned certificates' keys in `certificate` mode.
    var configuredPins: [String] {
        switch policy.pinningMode {
        case .none: []
        case .publicKey: policy.effectivePins.map(\.description)
        case .certificate: policy.pinnedCertificates.map(\.info.publicKeyPin)
        }
    }

    /// Whether the certificate at `depth` matches what is pinned (shown also when the chain is refused).
    func matches(_ certificate: CertificateInfo) -> Bool {
        switch policy.pinningMode {
        case .none: false
        case .publicKey: configuredPins.contains(certificate.publicKeyPin)
        case .certificate:
            policy.pinnedCertificates.contains { $0.info.sha256Fingerprint == certificate.sha256Fingerprint }
        }
    }

    /// One line: the verdict.
    var verdict: String {
        if let connectionError { return "connection failed: \(connectionError)" }
        guard let evaluation else { return "connection failed" }
        switch status {
        case .matched:
            if let depth = evaluation.matchedDepth, let pin = evaluation.matchedPin {
                let subject = depth < chain.count ? " (\(chain[depth].subject))" : ""
                return "pin matched at depth \(depth)\(subject): \(pin)"
            }
            return "the chain is trusted (nothing pinned)"
        case .pinMismatch:
            return "pin mismatch: no certificate of the chain matches a configured pin"
        case .certificateInvalid:
            return evaluation.failureMessage
        case .expiring:
            let items = expiring.map {
                "depth \($0.depth) (\($0.certificate.subject)) in \($0.certificate.daysLeft(from: now)) days"
            }
            return "expiring: " + items.joined(separator: ", ") + " (--min-days \(minDays ?? 0))"
        case .connectionFailed:
            return "connection failed: the handshake was not checked"
        case .usage:
            return ""
        }
    }

    // MARK: - Text

    func text(colored: Bool, printPins: Bool) -> String {
        let style = ANSIStyle(enabled: colored)
        var out = "pin-check \(url)\n"
        if policy.pinningMode != .none {
            out += "mode: \(policy.pinningMode.rawValue)\n"
            for pin in configuredPins { out += "  configured pin \(pin)\n" }
        }
        for (depth, certificate) in chain.enumerated() {
            // Names come from the server's certificates: shown with control characters escaped.
            out += "\n" + style.bold("depth \(depth)  \(ReportText.terminalLine(certificate.subject))") + "\n"
            out += "  issuer       \(ReportText.terminalLine(certificate.issuer))\n"
            let days = certificate.daysLeft(from: now)
            let left = days < 0 ? "expired \(-days) days ago" : "\(days) days left"
            out +=
                "  valid        \(Self.date(certificate.notBefore)) to \(Self.date(certificate.notAfter)) (\(left))\n"
            if !certificate.subjectAlternativeNames.isEmpty {
                let names = certificate.subjectAlternativeNames.joined(separator: ", ")
                out += "  names        \(ReportText.terminalLine(names))\n"
            }
            out += "  serial       \(certificate.serialNumber)\n"
            let mark = matches(certificate) ? "  " + style.green("<- matches a configured pin") : ""
            out += "  pin          \(certificate.publicKeyPin)\(mark)\n"
            out += "  sha256       \(certificate.sha256Fingerprint)\n"
        }
        if printPins && !chain.isEmpty { out += "\n" + pastePins() }
        let ok = status == .matched
        out += "\n" + (ok ? style.green("OK") : style.red("FAIL")) + ": \(ReportText.terminalLine(verdict))\n"
        if status == .pinMismatch {
            out += "  the chain's pins: " + chain.map(\.publicKeyPin).joined(separator: ", ") + "\n"
            out += "  configured pins:  " + configuredPins.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// The pins ready to paste into a suite and into curl.
    func pastePins() -> String {
        var out = "# for a suite (any certificate of the chain may match; keep a backup pin):\n"
        out += "security:\n  pinning: publicKey\n  pins:\n"
        for (depth, certificate) in chain.enumerated() {
            out +=
                "    - \"\(certificate.publicKeyPin)\"  # depth \(depth): \(ReportText.terminalLine(certificate.subject))\n"
        }
        if let leaf = chain.first {
            out += "# for curl (checks the leaf's key only):\n"
            out += "curl --pinnedpubkey '\(leaf.publicKeyPin)' '\(url)'\n"
        }
        return out
    }

    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    // MARK: - JSON

    struct JSONCertificate: Encodable {
        var depth: Int
        var subject: String
        var issuer: String
        var notBefore: String
        var notAfter: String
        var daysLeft: Int
        var serialNumber: String
        var subjectAlternativeNames: [String]
        var sha256Fingerprint: String
        var publicKeyPin: String
        var matchesPin: Bool
    }

    struct JSONReport: Encodable {
        var url: String
        var mode: String
        var status: String
        var exitCode: Int32
        var verdict: String
        var problem: String?
        var matchedDepth: Int?
        var matchedPin: String?
        var configuredPins: [String]
        var chain: [JSONCertificate]
        var pins: [String]?
    }

    func json(printPins: Bool) -> String {
        let statusName: String
        switch status {
        case .matched: statusName = "matched"
        case .pinMismatch: statusName = "pinMismatch"
        case .certificateInvalid: statusName = "certificateInvalid"
        case .expiring: statusName = "expiring"
        case .connectionFailed: statusName = "connectionFailed"
        case .usage: statusName = "usage"
        }
        let report = JSONReport(
            url: url, mode: policy.pinningMode.rawValue, status: statusName, exitCode: status.rawValue,
            verdict: verdict, problem: evaluation?.problem?.rawValue, matchedDepth: evaluation?.matchedDepth,
            matchedPin: evaluation?.matchedPin, configuredPins: configuredPins,
            chain: chain.enumerated().map { depth, certificate in
                JSONCertificate(
                    depth: depth, subject: certificate.subject, issuer: certificate.issuer,
                    notBefore: Self.date(certificate.notBefore), notAfter: Self.date(certificate.notAfter),
                    daysLeft: certificate.daysLeft(from: now), serialNumber: certificate.serialNumber,
                    subjectAlternativeNames: certificate.subjectAlternativeNames,
                    sha256Fingerprint: certificate.sha256Fingerprint, publicKeyPin: certificate.publicKeyPin,
                    matchesPin: matches(certificate))
            },
            pins: printPins ? chain.map(\.publicKeyPin) : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

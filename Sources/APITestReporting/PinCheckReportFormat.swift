package import APITestResults
import APITestSupport
import Foundation

/// `apitest pin-check`'s output: a text page for people and a JSON document for scripts, from a
/// ``PinCheckResult``. Names from the server's certificates reach the terminal with control characters escaped.
package enum PinCheckReportFormat {
    // MARK: - Text

    /// The chain, certificate by certificate, then the verdict; with `printPins`, the pins ready to paste.
    package static func text(_ result: PinCheckResult, colored: Bool, printPins: Bool) -> String {
        let style = ANSIStyle(enabled: colored)
        var out = "pin-check \(result.url)\n"
        if result.mode != "none" {
            out += "mode: \(result.mode)\n"
            for pin in result.configuredPins { out += "  configured pin \(pin)\n" }
        }
        for certificate in result.chain {
            out +=
                "\n" + style.bold("depth \(certificate.depth)  \(ReportText.terminalLine(certificate.subject))") + "\n"
            out += "  issuer       \(ReportText.terminalLine(certificate.issuer))\n"
            let days = certificate.daysLeft
            let left = days < 0 ? "expired \(-days) days ago" : "\(days) days left"
            out += "  valid        \(date(certificate.notBefore)) to \(date(certificate.notAfter)) (\(left))\n"
            if !certificate.subjectAlternativeNames.isEmpty {
                let names = certificate.subjectAlternativeNames.joined(separator: ", ")
                out += "  names        \(ReportText.terminalLine(names))\n"
            }
            out += "  serial       \(ReportText.terminalLine(certificate.serialNumber))\n"
            let mark = certificate.matchesPin ? "  " + style.green("<- matches a configured pin") : ""
            out += "  pin          \(certificate.publicKeyPin)\(mark)\n"
            out += "  sha256       \(certificate.sha256Fingerprint)\n"
        }
        if printPins && !result.chain.isEmpty { out += "\n" + pastePins(result) }
        let ok = result.status == .matched
        out += "\n" + (ok ? style.green("OK") : style.red("FAIL")) + ": \(ReportText.terminalLine(result.verdict))\n"
        if result.status == .pinMismatch {
            out += "  the chain's pins: " + result.chain.map(\.publicKeyPin).joined(separator: ", ") + "\n"
            out += "  configured pins:  " + result.configuredPins.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// The pins ready to paste into a suite and into curl.
    static func pastePins(_ result: PinCheckResult) -> String {
        var out = "# for a suite (any certificate of the chain may match; keep a backup pin):\n"
        out += "security:\n  pinning: publicKey\n  pins:\n"
        for certificate in result.chain {
            out +=
                "    - \"\(certificate.publicKeyPin)\"  # depth \(certificate.depth): "
                + "\(ReportText.terminalLine(certificate.subject))\n"
        }
        if let leaf = result.chain.first {
            out += "# for curl (checks the leaf's key only):\n"
            out += "curl --pinnedpubkey '\(leaf.publicKeyPin)' '\(result.url)'\n"
        }
        return out
    }

    /// A date as ISO 8601 with seconds, in UTC.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    // MARK: - JSON

    private struct JSONReport: Encodable {
        var url: String
        var mode: String
        var status: String
        var exitCode: Int32
        var verdict: String
        var problem: String?
        var matchedDepth: Int?
        var matchedPin: String?
        var configuredPins: [String]
        var chain: [PinCheckResult.Certificate]
        var pins: [String]?
    }

    /// The result as one JSON document (keys sorted), with the process's `exitCode`; with `printPins`, the chain's
    /// pins as a list too.
    package static func json(_ result: PinCheckResult, exitCode: Int32, printPins: Bool) -> String {
        let report = JSONReport(
            url: result.url, mode: result.mode, status: result.status.rawValue, exitCode: exitCode,
            verdict: result.verdict, problem: result.problem, matchedDepth: result.matchedDepth,
            matchedPin: result.matchedPin, configuredPins: result.configuredPins,
            chain: result.chain,
            pins: printPins ? result.chain.map(\.publicKeyPin) : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601 // as the text shows them: 2096-10-02T07:06:40Z
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

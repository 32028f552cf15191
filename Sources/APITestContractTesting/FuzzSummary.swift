package import APITestOpenAPI
import APITestSupport

/// The console summary of a fuzz run: the findings, then per check how many responses it judged and how many
/// failed, then per operation the cases sent, the statuses seen and the keywords covered. Text the server sent is
/// escaped (``Swift/String/shownInMessage``) and secrets are masked by `mask`.
package struct FuzzSummary: Sendable {
    /// The run.
    package let run: FuzzRun
    /// The document.
    package let description: OpenAPIDescription
    /// The checks run.
    package let checks: [FuzzCheck]
    /// Hides secrets in text shown.
    package let mask: @Sendable (String) -> String
    /// The document's `pattern`s outside ``PatternSampler``'s subset, named once after the operations.
    package var unsupportedPatterns: [String] = []

    /// A summary of `run`.
    package init(
        run: FuzzRun, description: OpenAPIDescription, checks: [FuzzCheck],
        mask: @escaping @Sendable (String) -> String
    ) {
        self.run = run
        self.description = description
        self.checks = checks
        self.mask = mask
    }

    /// The summary's lines.
    package func render() -> String {
        var text = ""
        if !run.findings.isEmpty {
            text += "Findings:\n"
            for (number, finding) in run.findings.enumerated() {
                let operation = description.operations[finding.operation]
                let outcome = finding.minimal
                text +=
                    "  \(number + 1). \(finding.check.rawValue) on \(operation.displayName.shownInMessage) "
                    + "(\(operation.method) \(operation.pathTemplate.shownInMessage)): "
                    + mask(finding.message).shownInMessage + "\n"
                text += "     \(outcome.request.method) \(mask(outcome.request.pathAndQuery).shownInMessage)"
                if let status = outcome.response?.status { text += " -> \(status)" }
                text += ", \(finding.occurrences) case\(finding.occurrences == 1 ? "" : "s")"
                if finding.shrunk != nil { text += ", shrunk" }
                if let note = finding.reproduction?.summaryNote { text += ", " + note }
                text += "\n"
            }
            text += "\n"
        }
        text += "Checks:\n"
        let width = checks.map(\.rawValue.count).max() ?? 0
        for check in checks {
            let failed = run.findings.filter { $0.check == check }
            let judged = run.outcomes.filter { FuzzEngine.applies(check, to: $0) }.count
            let padding = String(repeating: " ", count: width - check.rawValue.count)
            let operations = Set(failed.map(\.operation)).count
            let verdict: String
            if !failed.isEmpty {
                verdict =
                    "FAILED: \(failed.count) finding\(failed.count == 1 ? "" : "s") on \(operations) operation"
                    + (operations == 1 ? "" : "s")
            } else if judged == 0 {
                verdict = "not exercised: no response was for it"
            } else {
                verdict = "passed (\(judged) response\(judged == 1 ? "" : "s"))"
            }
            text += "  \(check.rawValue)\(padding)  \(verdict)\n"
        }
        text += "\nOperations:\n"
        var covered = 0
        for (index, operation) in description.operations.enumerated() {
            let outcomes = run.outcomes.filter { $0.fuzzCase.operation == index }
            if outcomes.contains(where: { $0.response != nil }) { covered += 1 }
            var statuses: [Int: Int] = [:]
            for outcome in outcomes { if let status = outcome.response?.status { statuses[status, default: 0] += 1 } }
            let errors = outcomes.filter { $0.transportError != nil }.count
            let keywords = Set(
                outcomes.compactMap { outcome -> String? in
                    if case .invalid(let keyword, _) = outcome.intent { return keyword }
                    return nil
                })
            let documented = operation.responseKeys.filter { key in
                statuses.keys.contains {
                    String($0) == key || (key.count == 3 && key.hasSuffix("XX") && String($0).first == key.first)
                }
            }
            let findings = run.findings.filter { $0.operation == index }.count
            text +=
                "  \(operation.method) \(operation.pathTemplate.shownInMessage): \(outcomes.count) case"
                + (outcomes.count == 1 ? "" : "s")
                + ", statuses "
                + (statuses.isEmpty
                    ? "none" : statuses.keys.sorted().map { "\($0)×\(statuses[$0]!)" }.joined(separator: " "))
                + " (documented seen: \(documented.count)/\(operation.responseKeys.count))"
                + (keywords.isEmpty ? "" : ", keywords broken: " + keywords.sorted().joined(separator: " "))
                + (errors == 0 ? "" : ", \(errors) without response")
                + (findings == 0 ? "" : ", \(findings) finding\(findings == 1 ? "" : "s")")
                + "\n"
        }
        if !unsupportedPatterns.isEmpty {
            let count = unsupportedPatterns.count
            text +=
                "\n\(count) pattern\(count == 1 ? "" : "s") outside the generator's subset (back-references, "
                + "look-around, \\b, \\p{...}): strings for \(count == 1 ? "it" : "them") are the schema's "
                + "examples, else not judged: "
                + unsupportedPatterns.map { "'\($0.shownInMessage)'" }.joined(separator: ", ") + "\n"
        }
        let sent = run.outcomes.count
        text +=
            "\n\(covered)/\(description.operations.count) operations covered, \(sent) request\(sent == 1 ? "" : "s") sent"
        if run.notSent > 0 { text += ", \(run.notSent) not sent (--duration)" }
        text += ", \(run.findings.count) finding\(run.findings.count == 1 ? "" : "s")"
        text += " in \(Self.seconds(run.duration))\n"
        return text
    }

    /// `duration` as seconds with two decimals.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds / 1000).\(String(format2: Int(milliseconds % 1000) / 10))s"
    }
}

// MARK: - Re-running a stateful finding

extension FuzzFinding.Reproduction {
    /// What the summary's line of a finding says of re-running it: that it did not fail the same way again (it is
    /// written as found); nil when it did, or was not re-run (the written file's comment says so).
    var summaryNote: String? {
        switch self {
        case .notReproduced(let requests):
            "did not reproduce when re-run (\(requests) request\(requests == 1 ? "" : "s")), written as found"
        case .reproduced, .notTried:
            nil
        }
    }
}

extension String {
    /// A number of two digits, zero-padded.
    init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}

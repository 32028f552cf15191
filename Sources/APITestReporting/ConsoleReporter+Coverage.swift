import APITestResults
import APITestSupport

/// The console's OpenAPI coverage summary, after the run's counts:
///
/// ```
/// OpenAPI api.yaml: 12/19 operations, 21/48 responses
///   ✔ listPets         200 ✔  default ✘
///   ✘ deletePet        204 ✘  404 ✘
/// ```
///
/// One line per document; without `--quiet` a line per operation with each declared response hit (✔) or not (✘),
/// and the requests that matched no operation.
extension ConsoleReporter {
    // MARK: - Coverage

    /// The coverage lines (no final newline).
    func coverageText(_ coverage: OpenAPICoverage) -> String {
        var lines: [String] = []
        for document in coverage.documents {
            let totals = OpenAPICoverage.totals(of: document)
            let file = ReportText.terminalLine(document.file)
            lines.append(
                "\(style.bold("OpenAPI \(file)")): \(totals.operationsHit)/\(totals.operations) operations, "
                    + "\(totals.responsesHit)/\(totals.responses) responses")
            guard verbosity != .quiet else { continue }
            let width = min(40, document.operations.map { ReportText.terminalLine($0.displayName).count }.max() ?? 0)
            for operation in document.operations {
                let name = ReportText.terminalLine(operation.displayName)
                let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
                let responses = operation.responses.map { response in
                    "\(ReportText.terminalLine(response.status)) \(response.hits > 0 ? style.green("✔") : style.red("✘"))"
                }
                let mark = operation.isCovered ? style.green("✔") : style.red("✘")
                lines.append("  \(mark) \(padded)  \(responses.joined(separator: "  "))")
            }
            for request in document.unmatched {
                let line = ReportText.terminalLine("\(request.method) \(request.path)")
                lines.append("  \(style.yellow("?")) \(line) matches no operation (\(request.hits)×)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

import APITestResults
import APITestSupport

/// The console's OpenAPI coverage summary, after the run's counts:
///
/// ```
/// OpenAPI api.yaml: 12/19 operations, 21/48 responses
///   ✔ listPets         200 ✔  default ✘
///   ✔ getPet           200 ✔  404 ✘
///   7 operations not called: createPet, deletePet, updatePet, ...
///   ? GET /pets/1/toys matches no operation (2×)
/// ```
///
/// One line per document; without `--quiet` a line per operation called with each declared response hit (✔) or not
/// (✘), the operations not called on one line (the first ten named), and the requests that matched no operation.
/// The coverage file and the HTML report list every operation.
extension ConsoleReporter {
    // MARK: - Coverage

    /// How many operations not called are named before the rest are counted.
    static let namedUncalledOperations = 10

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
            let called = document.operations.filter(\.isCovered)
            let width = min(40, called.map { ReportText.terminalLine($0.displayName).count }.max() ?? 0)
            for operation in called {
                let name = ReportText.terminalLine(operation.displayName)
                let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
                let responses = operation.responses.map { response in
                    "\(ReportText.terminalLine(response.status)) \(response.hits > 0 ? style.green("✔") : style.red("✘"))"
                }
                lines.append("  \(style.green("✔")) \(padded)  \(responses.joined(separator: "  "))")
            }
            let uncalled = document.operations.filter { !$0.isCovered }
            if !uncalled.isEmpty {
                var names = uncalled.prefix(Self.namedUncalledOperations).map {
                    ReportText.terminalLine($0.displayName)
                }
                if uncalled.count > Self.namedUncalledOperations { names.append("…") }
                let count = uncalled.count == 1 ? "1 operation" : "\(uncalled.count) operations"
                lines.append("  \(style.red("✘")) \(count) not called: \(names.joined(separator: ", "))")
            }
            for request in document.unmatched {
                let line = ReportText.terminalLine("\(request.method) \(request.path)")
                lines.append("  \(style.yellow("?")) \(line) matches no operation (\(request.hits)×)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

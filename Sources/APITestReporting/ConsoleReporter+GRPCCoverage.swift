import APITestResults
import APITestSupport

/// The console's gRPC coverage summary, after the run's counts (and the OpenAPI coverage lines):
///
/// ```
/// gRPC coverage: 2 of 5 methods called (40%)
///   users.proto: 2 of 5 called
///   ✔ acme.Users/GetUser    OK 1, NOT_FOUND 1
///   ✔ acme.Users/ListUsers  OK 1
///   ✘ 3 methods not called: acme.Users/Chat, acme.Users/Slow, acme.Users/Upload
/// ```
///
/// The totals line; then, without `--quiet`, per source its line, a line per method called with its calls by
/// status, and the methods not called on one line (the first ten named). With `--quiet`, only the totals line (and
/// a line per source when there are several). The coverage file and the HTML report list every method.
extension ConsoleReporter {
    // MARK: - gRPC coverage

    /// The gRPC coverage lines (no final newline).
    func grpcCoverageText(_ coverage: GRPCCoverage) -> String {
        let totals = coverage.totals
        var lines = [
            "\(style.bold("gRPC coverage")): \(totals.methodsCalled) of \(totals.methods) "
                + "method\(totals.methods == 1 ? "" : "s") called (\(totals.percent)%)"
        ]
        guard verbosity != .quiet || coverage.sources.count > 1 else { return lines[0] }
        for source in coverage.sources {
            let sourceTotals = GRPCCoverage.totals(of: source)
            let name = ReportText.terminalLine(source.name)
            lines.append("  \(name): \(sourceTotals.methodsCalled) of \(sourceTotals.methods) called")
            guard verbosity != .quiet else { continue }
            let called = source.methods.filter(\.isCovered)
            let width = min(50, called.map { ReportText.terminalLine($0.name).count }.max() ?? 0)
            for method in called {
                let name = ReportText.terminalLine(method.name)
                let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
                lines.append("  \(style.green("✔")) \(padded)  \(Self.statusText(method))")
            }
            let uncalled = source.methods.filter { !$0.isCovered }
            if !uncalled.isEmpty {
                var names = uncalled.prefix(Self.namedUncalledOperations).map { ReportText.terminalLine($0.name) }
                if uncalled.count > Self.namedUncalledOperations { names.append("…") }
                let count = uncalled.count == 1 ? "1 method" : "\(uncalled.count) methods"
                lines.append("  \(style.red("✘")) \(count) not called: \(names.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `OK 12, NOT_FOUND 1`: a method's calls by status, OK first, then by name.
    static func statusText(_ method: GRPCCoverage.Method) -> String {
        method.statuses.sorted { lhs, rhs in
            lhs.key == "OK" || (rhs.key != "OK" && lhs.key < rhs.key)
        }
        .map { "\(ReportText.terminalLine($0.key)) \($0.value)" }
        .joined(separator: ", ")
    }
}

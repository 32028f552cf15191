import Foundation

// MARK: - ValidateOutput

/// The diagnostics `apitest validate` prints on standard error, read back for tests.
///
/// Each diagnostic is a headline (`error: message` or `warning: message`) followed by ` --> file:line:column`;
/// warnings of suites that load are printed on one line (`file:line:column: warning: message`). The last line
/// of a failed validation is the summary `N errors in M files; nothing was run.`
struct ValidateOutput {
    /// One diagnostic and where it points.
    struct Diagnostic: Equatable {
        var severity: String
        var message: String
        var file: String
        var line: Int
        var column: Int
    }

    /// Every diagnostic, in output order.
    var diagnostics: [Diagnostic] = []
    /// Headlines (`error: ...`) that were not followed by a location.
    var unlocated: [String] = []
    /// The summary's error and file counts, when there is a summary.
    var summary: (errors: Int, files: Int)?

    /// The errors, without warnings.
    var errors: [Diagnostic] { diagnostics.filter { $0.severity == "error" } }

    init(_ stderr: String) {
        var pending: (severity: String, message: String)?
        for line in stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let headline = Self.headline(line) {
                if let pending { unlocated.append("\(pending.severity): \(pending.message)") }
                pending = headline
                continue
            }
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("--> "), let open = pending {
                if let (file, number, column) = Self.location(String(trimmed.dropFirst(4))) {
                    diagnostics.append(
                        Diagnostic(
                            severity: open.severity, message: open.message, file: file, line: number, column: column))
                } else {
                    unlocated.append("\(open.severity): \(open.message)")
                }
                pending = nil
                continue
            }
            if let oneLine = Self.oneLineWarning(line) {
                diagnostics.append(oneLine)
            } else if let counts = Self.summary(line) {
                summary = counts
            }
        }
        if let pending { unlocated.append("\(pending.severity): \(pending.message)") }
    }

    // MARK: - Lines

    private static func headline(_ line: String) -> (severity: String, message: String)? {
        for severity in ["error", "warning"] where line.hasPrefix("\(severity): ") {
            return (severity, String(line.dropFirst(severity.count + 2)))
        }
        return nil
    }

    /// `file:line:column`, split at the last two colons (paths may hold colons).
    private static func location(_ text: String) -> (String, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let column = Int(parts[parts.count - 1]), let line = Int(parts[parts.count - 2])
        else { return nil }
        return (parts.dropLast(2).joined(separator: ":"), line, column)
    }

    private static func oneLineWarning(_ line: String) -> Diagnostic? {
        guard let range = line.range(of: ": warning: "),
            let (file, number, column) = location(String(line[..<range.lowerBound]))
        else { return nil }
        return Diagnostic(
            severity: "warning", message: String(line[range.upperBound...]), file: file, line: number, column: column)
    }

    private static func summary(_ line: String) -> (Int, Int)? {
        let words = line.split(separator: " ")
        guard line.hasSuffix("; nothing was run."), words.count >= 5, let errors = Int(words[0]),
            let files = Int(words[3])
        else { return nil }
        return (errors, files)
    }
}

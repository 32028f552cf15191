import APITestResults
import APITestSupport
import Foundation

/// The texts of a test's steps that JUnit (`failure`, `system-out`) and CTRF (`trace`, `stdout`) reports carry:
/// every failed assertion and error with its location and request, and each step's request line and timings.
enum StepText {
    /// Every failed assertion: `file:line:column: message`, expected, actual and the request line.
    static func failures(_ steps: [StepResult]) -> String {
        var text = ""
        for step in steps {
            for failure in step.failures {
                text += "\(failure.location): \(ReportText.terminalLine(failure.message))\n"
                if let expected = failure.expected { text += "  expected: \(indented(expected))\n" }
                if let actual = failure.actual { text += "  actual:   \(indented(actual))\n" }
                if let exchange = step.exchange { text += "  request:  \(ReportText.requestSummary(exchange))\n" }
            }
            if !step.failures.isEmpty { text += reproduce(step) }
        }
        return text
    }

    /// `  reproduce: curl ...` and the command's notes, for a step that did not pass.
    static func reproduce(_ step: StepResult) -> String {
        guard let command = step.reproduce else { return "" }
        var text = "  reproduce: \(command.line)\n"
        for note in command.notes { text += "  note: \(note)\n" }
        return text
    }

    /// Every error: `file:line:column: message [kind]`, the request line and the curl command.
    static func errors(_ steps: [StepResult]) -> String {
        var text = ""
        for step in steps {
            guard let error = step.error else { continue }
            text +=
                "\(error.location ?? step.location): \(ReportText.terminalLine(error.message)) [\(error.kind.rawValue)]\n"
            if let exchange = step.exchange { text += "  request:  \(ReportText.requestSummary(exchange))\n" }
            text += reproduce(step)
        }
        return text
    }

    /// The test's location (when given), how many times it ran (when more than once), and each step's request
    /// line, status and timings.
    static func requests(_ location: SourceLocation?, _ steps: [StepResult], attempts: Int?) -> String {
        var text = location.map { "test at \($0)\n" } ?? ""
        if let attempts, attempts > 1 {
            text += "run \(attempts) times (retries); the steps below are the last run's\n"
        }
        for step in steps {
            // A step's name may hold a server's text (a `forEach` item): one line, like every line of this text.
            text += "\(ReportText.terminalLine(step.displayName)) at \(step.location): "
            if let skipped = step.skipped {
                text += "skipped: \(skipped)\n"
                continue
            }
            if let exchange = step.exchange {
                text += ReportText.requestSummary(exchange)
                if let version = exchange.httpVersion { text += " \(version)" }
                text += "\n"
                if let timings = exchange.timings { text += "  \(ReportText.timingsLine(timings))\n" }
            } else {
                text += "no request was sent\n"
            }
            if step.attempts > 1 { text += "  attempts: \(step.attempts)\n" }
            if !step.captured.isEmpty { text += "  captured: \(step.captured.joined(separator: ", "))\n" }
        }
        return text
    }

    static func indented(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\n            ")
    }
}

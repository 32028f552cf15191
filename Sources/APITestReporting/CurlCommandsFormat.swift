package import APITestResults

/// `apitest run --curl FILE`: every request the run sent, as a curl command for a POSIX shell, in the order they
/// were sent, each under a `# suite › test › step N` comment line (and `# note:` lines where the command departs from
/// the request). Secrets are `"${NAME}"` references to their environment variables, never their values.
///
/// The commands are made by the runner (`StepResult.reproduce`, `earlierAttempts` for the attempts of a step that
/// retried); this format only orders and prints them.
package struct CurlCommandsFormat: ReportFormat {
    /// The format.
    package init() {}

    /// `curl commands`, in messages about the file.
    package var displayName: String { "curl commands" }

    /// The commands come with every step, whatever the exchange shows: nothing more of a passing step is needed.
    package var resultDetail: ResultDetail { .failures }

    /// The script: every recorded command of `record`, in the order sent.
    package func render(_ record: RunRecord) -> String {
        var entries: [(sequence: Int, label: String, command: ReproduceCommand)] = []
        for suite in record.suites {
            for result in suite.results {
                for step in result.steps {
                    let label = "\(result.suiteName) › \(result.name) › \(step.displayName)"
                    let attempts = step.earlierAttempts + (step.reproduce.map { [$0] } ?? [])
                    for (number, command) in attempts.enumerated() {
                        guard let sequence = command.sequence else { continue }
                        let attempt = attempts.count > 1 ? " (attempt \(number + 1))" : ""
                        entries.append((sequence, label + attempt, command))
                    }
                }
            }
        }
        entries.sort { $0.sequence < $1.sequence }
        return Self.script(
            heading: "The requests apitest sent, in order, as curl commands (apitest run --curl).",
            entries.map { ($0.label, $0.command, nil) })
    }

    /// A shell script of `entries`: each under a `# label` comment line, a command or a `# not exported:` line.
    /// Labels and problems are made one line each, so that nothing from a suite or a server leaves the comments.
    /// The heading says the script is for any POSIX shell and names the variables its commands read.
    package static func script(
        heading: String, _ entries: [(label: String, command: ReproduceCommand?, problem: String?)]
    ) -> String {
        var text = "#!/bin/sh\n# \(heading)\n# Quoted for any POSIX shell: sh FILE or bash FILE.\n"
        let variables = Self.variables(in: entries.compactMap(\.command))
        if !variables.isEmpty {
            text += "# Set first (the notes say what each holds): \(variables.joined(separator: " "))\n"
        }
        for entry in entries {
            text += "\n# \(ReportText.oneLine(entry.label))\n"
            if let command = entry.command { text += command.script }
            if let problem = entry.problem { text += "# not exported: \(ReportText.oneLine(problem))\n" }
        }
        return text
    }

    /// The names of the variables `commands` read (`"${NAME}"` outside single quotes), sorted, each once.
    static func variables(in commands: [ReproduceCommand]) -> [String] {
        var names: Set<String> = []
        for command in commands {
            for text in command.words + (command.input.map { [$0] } ?? []) {
                let characters = Array(text.unicodeScalars)
                var index = 0
                while index < characters.count {
                    switch characters[index] {
                    case "\\": index += 2
                    case "'", "\"":
                        let quote = characters[index]
                        var end = index + 1
                        while end < characters.count, characters[end] != quote { end += 1 }
                        if quote == "\"" {
                            let inside = String(
                                String.UnicodeScalarView(characters[(index + 1)..<min(end, characters.count)]))
                            if inside.hasPrefix("${"), inside.hasSuffix("}") {
                                names.insert(String(inside.dropFirst(2).dropLast()))
                            }
                        }
                        index = end + 1
                    default: index += 1
                    }
                }
            }
        }
        return names.sorted()
    }
}

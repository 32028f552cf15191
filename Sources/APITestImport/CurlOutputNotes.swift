import APITestSuiteWriting

/// The options of the imported commands that only change what curl prints or saves (`-s`, `-S`, `-v`, `-o`, `-w`,
/// `-f`, …): a suite sends the same request without them, so they are dropped, and said once for the whole import
/// rather than on every test: one note per option with the lines it is on, options of one reason on the same lines
/// in one note (`-s, -S (lines 1, 3, 7): apitest has no progress meter to silence, and reports every error;
/// dropped`).
struct CurlOutputNotes {
    /// Where an option was seen: `line 3` (text from a file or standard input), `command 2` (several commands
    /// given as arguments), or nothing (one command).
    enum Place: Hashable {
        case line(Int)
        case command(Int)
        case only
    }

    /// Each option by its long name: its spellings as written and the places it is at, in the order first seen.
    private var options: [(long: String, spellings: [String], places: [Place])] = []

    /// No option seen yet.
    init() {}

    /// Whether `long` (curl's long name) only changes what curl prints or saves.
    static func isOutputOnly(_ long: String) -> Bool { reason(of: long) != nil }

    /// Records the option `long`, written `spelling` (`-s`, `--silent`, `--no-progress-meter`), at `place`.
    mutating func record(_ long: String, spelling: String, at place: Place) {
        guard let index = options.firstIndex(where: { $0.long == long }) else {
            options.append((long, [spelling], [place]))
            return
        }
        if !options[index].spellings.contains(spelling) { options[index].spellings.append(spelling) }
        if !options[index].places.contains(place) { options[index].places.append(place) }
    }

    /// The notes: one per reason and set of places, in the order the options were first seen.
    var notes: [SuiteDocument.Note] {
        var groups: [(reason: String, places: [Place], spellings: [String])] = []
        for option in options {
            let reason = Self.reason(of: option.long) ?? "only changes what curl prints or saves; dropped"
            let spelling = option.spellings.joined(separator: "/")
            if let index = groups.firstIndex(where: { $0.reason == reason && $0.places == option.places }) {
                groups[index].spellings.append(spelling)
            } else {
                groups.append((reason, option.places, [spelling]))
            }
        }
        return groups.map { group in
            let places = Self.text(of: group.places)
            return SuiteDocument.Note(
                location: "",
                text: group.spellings.joined(separator: ", ") + (places.isEmpty ? "" : " (\(places))") + ": "
                    + group.reason)
        }
    }

    // MARK: - Words

    /// `line 3`, `lines 1, 3, 7`, `commands 1, 2`; empty for the one command.
    private static func text(of places: [Place]) -> String {
        let lines = places.compactMap { if case .line(let line) = $0 { line } else { nil } }
        let commands = places.compactMap { if case .command(let command) = $0 { command } else { nil } }
        var parts: [String] = []
        if !lines.isEmpty {
            parts.append(
                (lines.count == 1 ? "line " : "lines ") + lines.sorted().map(String.init).joined(separator: ", "))
        }
        if !commands.isEmpty {
            parts.append(
                (commands.count == 1 ? "command " : "commands ")
                    + commands.sorted().map(String.init).joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Why the option `long` is dropped; nil for an option that is not only about curl's output.
    private static func reason(of long: String) -> String? {
        switch long {
        case "silent", "show-error", "progress-bar", "no-progress-meter":
            "apitest has no progress meter to silence, and reports every error; dropped"
        case "verbose", "trace", "trace-ascii", "trace-time", "stderr":
            "curl's trace of the transfer; apitest run --verbose shows each exchange (secrets masked); dropped"
        case "include", "output", "remote-name", "remote-header-name", "remote-name-all", "dump-header",
            "output-dir", "create-dirs", "create-file-mode", "remote-time", "no-buffer":
            "where curl prints or saves the response; apitest's reports hold it (--report-json); dropped"
        case "write-out":
            "what curl prints after the transfer; a test's expect and capture read the response; dropped"
        case "fail", "fail-with-body", "fail-early":
            "curl's exit status on an HTTP error; a test checks the status (any 2xx unless expect.status says "
                + "otherwise); dropped"
        case "styled-output", "disable", "help", "manual", "version":
            "about curl itself, not the request; dropped"
        default:
            nil
        }
    }
}

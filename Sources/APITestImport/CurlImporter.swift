import APITestJSON
package import APITestSuiteWriting
import APITestSupport
import Foundation

/// `apitest import curl`: curl command lines (shell text, as a POSIX shell reads it) into one suite, a test per URL
/// of each command, whose requests are the bytes curl sends (method, URL, headers, body; the `User-Agent` is
/// apitest's). What cannot be translated is a ``SuiteDocument.Note`` with the argument's position; an option curl does not
/// know, or a command curl would refuse, is a ``Failure``.
///
/// ```swift
/// let suite = try CurlImporter(options: options).importText("curl -sS -X POST https://api.example.com/users -d name=carol")
/// ```
package struct CurlImporter: Sendable {
    /// Where the command lines come from and where the suite goes.
    package struct Options: Sendable {
        /// `--name`; nil names the suite after the source.
        package var name: String?
        /// The folder curl would run in: relative file names (`-d @body.json`, `-F f=@a.png`, `--cacert`) are
        /// relative to it.
        package var workingDirectory: String
        /// The folder of the suite file: the files the suite names are written relative to it.
        package var outputDirectory: String
        /// The source in words, for the suite's header comment (`standard input`, `requests.sh`).
        package var source: String
        /// Whether locations name lines (text from a file or standard input) or only arguments.
        package var locatesLines: Bool

        /// Options.
        package init(
            name: String? = nil, workingDirectory: String, outputDirectory: String, source: String,
            locatesLines: Bool
        ) {
            self.name = name
            self.workingDirectory = workingDirectory
            self.outputDirectory = outputDirectory
            self.source = source
            self.locatesLines = locatesLines
        }
    }

    /// Why the command lines cannot be imported, and where.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Where (`line 3, argument 7`; `argument 7`).
        package var location: String
        /// What is wrong.
        package var message: String

        /// `location: message`, the words and values quoted from the command lines escaped for the display
        /// (``Swift/String/shownInMessage``: a word may hold ESC or any other control character).
        package var description: String {
            location.isEmpty ? message.shownInMessage : "\(location): \(message.shownInMessage)"
        }
    }

    /// What was asked for.
    package var options: Options

    /// An importer with `options`.
    package init(options: Options) {
        self.options = options
    }

    // MARK: - Importing

    /// The suite of the curl commands in `texts` (each one or more command lines).
    package func importTexts(_ texts: [String]) throws(Failure) -> SuiteDocument {
        var commands: [(ShellCommand, prefix: String)] = []
        for (index, text) in texts.enumerated() {
            let prefix = texts.count > 1 ? "argument \(index + 1) of apitest, " : ""
            do {
                commands += try ShellSplitter.commands(text).map { ($0, prefix) }
            } catch {
                throw Failure(
                    location: prefix + (options.locatesLines ? "line \(error.line), column \(error.column)" : ""),
                    message: error.message + (options.locatesLines ? "" : " (column \(error.column))"))
            }
        }
        return try importCommands(commands)
    }

    /// The suite of `commands`; `prefix` leads each location (which text the command came from).
    private func importCommands(_ commands: [(ShellCommand, prefix: String)]) throws(Failure) -> SuiteDocument {
        var suite = SuiteDocument(name: options.name ?? "curl")
        var translations: [CurlTranslation] = []
        // A credential written out never takes the name of a variable the commands read (`$API_PASSWORD`).
        var secrets = HARSecrets()
        for (command, _) in commands {
            for word in command.words {
                for case .variable(let name) in word.pieces { secrets.reserve(name) }
            }
        }
        var skipped: [SuiteDocument.Note] = []
        var outputNotes = CurlOutputNotes()
        let curlCommands = commands.count { command, _ in
            command.words.first?.literal.map { $0 == "curl" || $0.hasSuffix("/curl") } ?? false
        }
        for (command, prefix) in commands {
            let lineText = options.locatesLines ? "line \(command.line)" : ""
            guard let first = command.words.first?.literal, first == "curl" || first.hasSuffix("/curl") else {
                let name = command.words.first?.description ?? command.redirections.joined(separator: " ")
                if command.isPipeTarget {
                    skipped.append(
                        SuiteDocument.Note(
                            location: prefix + lineText,
                            text: "'\(name)' reads curl's output through a pipe: not translated"))
                    continue
                }
                throw Failure(
                    location: prefix + lineText,
                    message: "'\(name)' is not a curl command (each command line starts with curl)")
            }
            let locate: @Sendable (Int) -> String = { [locatesLines = options.locatesLines] position in
                prefix + (locatesLines ? "line \(command.line), argument \(position)" : "argument \(position)")
            }
            // The commands share their secrets: one variable per distinct value, whichever command holds it.
            var translation = try CurlTranslation(
                words: Array(command.words.dropFirst()), locate: locate, options: options, secrets: secrets)
            secrets = translation.secrets
            // A file's option is placed on the line it is written on (a command continued with `\` spans several).
            let commandPlace: CurlOutputNotes.Place = curlCommands > 1 ? .command(translations.count + 1) : .only
            for option in translation.outputOnly {
                let place =
                    options.locatesLines ? .line(command.line(ofWord: option.position)) : commandPlace
                outputNotes.record(option.long, spelling: option.spelling, at: place)
            }
            for redirection in command.redirections {
                translation.notes.append(
                    SuiteDocument.Note(
                        location: prefix + lineText,
                        text: "the redirection '\(redirection)' only concerns curl's input or output: not translated"))
            }
            // The command is the test's comment: a credential written out in it shows as its variable, put in the
            // words before they are quoted (in the quoted text, a quote in the value would hide it from the search).
            // Only the words the credential was taken from are searched (the option's own word and the one after
            // it), so that a short value elsewhere on the line (a one-letter password in a host name) is left alone.
            let words = Array(command.words.dropFirst())
            translation.commandText =
                "curl "
                + words.indices.map { index in
                    let position = index + 1
                    let uses =
                        (translation.secretsByPosition[position, default: []]
                        + translation.secretsByPosition[position - 1, default: []])
                        .filter { !$0.value.isEmpty }.sorted { $0.value.count > $1.value.count }
                    return Self.referencing(uses, in: words[index]).quoted
                }
                .joined(separator: " ")
            translations.append(translation)
        }
        guard !translations.isEmpty else { throw Failure(location: "", message: "no curl command found") }
        suite.header = [
            "Imported by `apitest import curl` from \(options.source): each test sends what curl sends (method, URL, "
                + "headers, body), with apitest's User-Agent."
        ]
        // Options about curl's own output, said once for every command (not on each test).
        suite.notes = skipped + outputNotes.notes

        // Security is a suite setting: every command must agree.
        let securities = translations.map(\.security)
        if let first = securities.first, securities.contains(where: { $0 != first }) {
            throw Failure(
                location: "",
                message: "the commands differ in their TLS settings (-k, --cacert, --cert, --key, --pinnedpubkey), "
                    + "which are one suite's security: import them into separate suites")
        }
        suite.security = securities.first.flatMap { $0.isEmpty ? nil : $0 }

        // A shared origin becomes the variable `base`, so that the suite can be pointed elsewhere with --var.
        var tests: [SuiteDocument.Test] = []
        for translation in translations { tests += try translation.tests() }
        let origins = Set(tests.map { Self.origin(of: $0.request.url) })
        if origins.count == 1, let origin = origins.first, let origin {
            suite.variables = [(name: "base", value: .string(origin))]
            for index in tests.indices {
                tests[index].request.url = "{{ base }}" + tests[index].request.url.dropFirst(origin.count)
            }
        }
        // Settings every test shares go to defaults.
        if Set(tests.map { $0.request.followRedirects }).count == 1 {
            suite.defaults.followRedirects = tests.first?.request.followRedirects
            for index in tests.indices { tests[index].request.followRedirects = nil }
        }
        if Set(tests.map { $0.request.compressed }).count == 1 {
            suite.defaults.compressed = tests.first?.request.compressed
            for index in tests.indices { tests[index].request.compressed = nil }
        }
        if let auth = tests.first?.request.auth, tests.allSatisfy({ $0.request.auth == auth }) {
            suite.defaults.auth = auth
            for index in tests.indices { tests[index].request.auth = nil }
        }
        Self.share(\.resolve, empty: [], of: &tests, into: &suite.defaults)
        Self.share(\.connectTo, empty: [], of: &tests, into: &suite.defaults)
        Self.share(\.unixSocket, empty: nil, of: &tests, into: &suite.defaults)
        Self.share(\.httpVersion, empty: nil, of: &tests, into: &suite.defaults)
        Self.share(\.proxy, empty: nil, of: &tests, into: &suite.defaults)
        Self.share(\.noProxy, empty: nil, of: &tests, into: &suite.defaults)
        suite.tests = tests
        return suite
    }

    // MARK: - Helpers

    /// Moves the transport setting `key` to `defaults` when every test has the same one (and it is set).
    private static func share<Value: Equatable>(
        _ key: WritableKeyPath<SuiteDocument.Transport, Value>, empty: Value, of tests: inout [SuiteDocument.Test],
        into defaults: inout SuiteDocument.Defaults
    ) {
        guard let value = tests.first?.request.transport[keyPath: key], value != empty,
            tests.allSatisfy({ $0.request.transport[keyPath: key] == value })
        else { return }
        defaults.transport[keyPath: key] = value
        for index in tests.indices { tests[index].request.transport[keyPath: key] = empty }
    }

    /// `scheme://host[:port]` of a literal absolute URL; nil when the URL holds a placeholder before its path.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let origin = String(url[..<end])
        return origin.contains("{{") ? nil : origin
    }

    /// `word` with each value of `uses` in its text replaced by a reference to its variable, longest value first;
    /// only where the value stands after its lead (`Bearer `, `access_token=`) and as a whole value: a value without
    /// a lead after the start, `:`, `=`, a space, `,` or `"`, and any value before the end, `&`, `;`, `@`, `,`, `#`, a
    /// space or `"` (`-u user:VALUE`, `-H 'Name: VALUE'`), never inside a longer run of text.
    static func referencing(_ uses: [HARSecrets.Use], in word: ShellWord) -> ShellWord {
        var pieces = word.pieces
        for use in uses {
            pieces = pieces.flatMap { piece -> [ShellWord.Piece] in
                guard case .literal(let bytes) = piece else { return [piece] }
                let text = String(decoding: bytes, as: UTF8.self)
                let ranges = valueRanges(of: use, in: text)
                guard !ranges.isEmpty else { return [piece] }
                var result: [ShellWord.Piece] = []
                var rest = text.startIndex
                for range in ranges {
                    if rest < range.lowerBound { result.append(.text(String(text[rest..<range.lowerBound]))) }
                    result.append(.variable(use.name))
                    rest = range.upperBound
                }
                if rest < text.endIndex { result.append(.text(String(text[rest...]))) }
                return result
            }
        }
        return ShellWord(pieces)
    }

    /// The ranges of `use`'s value in `text` where it stands as a whole value after its lead (see
    /// ``referencing(_:in:)``), without overlaps.
    static func valueRanges(of use: HARSecrets.Use, in text: String) -> [Range<String.Index>] {
        let before: Set<Character> = [":", "=", " ", ",", "\""]
        let after: Set<Character> = ["&", ";", "@", ",", "#", " ", "\""]
        let needle = use.lead + use.value
        var ranges: [Range<String.Index>] = []
        var start = text.startIndex
        while start < text.endIndex, let range = text.range(of: needle, range: start..<text.endIndex) {
            let opens =
                !use.lead.isEmpty || range.lowerBound == text.startIndex
                || before.contains(text[text.index(before: range.lowerBound)])
            let closes = range.upperBound == text.endIndex || after.contains(text[range.upperBound])
            if opens && closes {
                ranges.append(text.index(range.lowerBound, offsetBy: use.lead.count)..<range.upperBound)
                start = range.upperBound
            } else {
                start = text.index(after: range.lowerBound)
            }
        }
        return ranges
    }
}

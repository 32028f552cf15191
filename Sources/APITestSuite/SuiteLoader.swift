import APITestSupport
import APITestYAML
import Foundation

/// Loads suite files into validated `Suite`s, reporting every problem of a file at once.
///
/// Loading reads the suite file (and checks the files it names) but does no network I/O.
package struct SuiteLoader: Sendable {
    /// The process environment; `{{ env.NAME }}` reads it, and its values are secret.
    package var environment: [String: String]
    /// `--var name=value` values: they replace suite variables of the same name, or add them.
    package var overrides: [String: String]
    /// The names among `overrides` whose values are secret (from `.env` variables files).
    package var secretOverrides: Set<String> = []
    /// `--openapi FILE`: the OpenAPI document of every suite that names none itself (its `location` is replaced
    /// by the start of each suite that uses it).
    package var defaultOpenAPI: OpenAPISetting?
    /// The OpenAPI contracts of this load, each read and compiled once (copies of the loader share it).
    package var contracts = OpenAPIContractStore()
    /// Whether a long suite file is composed in parts on several cores (`YAMLComposer.composeInParts`) and its long
    /// `tests` list parsed in parts (`TestParser`); the result, and every diagnostic, is the same either way. Off
    /// only to compare the two.
    package var parsesTestsInParallel = true
    /// Whether an unset environment variable a suite uses is kept in the suite (``Suite/unsetEnvironment``) for the
    /// command to report for the tests it selects, rather than an error that fails the file; a file with other
    /// errors reports them all the same. Off (every use an error) for `validate` and whatever runs every test.
    package var defersUnsetEnvironment = false

    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment, overrides: [String: String] = [:]
    ) {
        self.environment = environment
        self.overrides = overrides
    }

    // MARK: - Loading

    /// Reads and loads the suite file at `path` (relative paths resolve against the current directory).
    package func load(path: String) throws(SuiteLoadError) -> Suite {
        let start = SourceLocation(file: path, line: 1, column: 1)
        // Looked at before it is opened: a FIFO or a device found in a folder must not block the loader.
        switch ReadableFile.problem(at: path) {
        case .missing?:
            throw SuiteLoadError(diagnostics: [.error("suite file not found", at: start)], source: nil)
        case .directory?:
            throw SuiteLoadError(
                diagnostics: [.error("expected a suite file, found a directory", at: start)], source: nil)
        case .notRegular?:
            throw SuiteLoadError(
                diagnostics: [.error("the suite file is not a regular file (a FIFO, socket or device)", at: start)],
                source: nil)
        case .unreadable?:
            throw SuiteLoadError(diagnostics: [.error("cannot read the suite file", at: start)], source: nil)
        case nil:
            break
        }
        return try load(source: try Self.text(at: path, start: start), file: path)
    }

    /// The text of the file at `path`. Its bytes are let go before the text is parsed: the file is held once, not
    /// twice, while the suite is built.
    private static func text(at path: String, start: SourceLocation) throws(SuiteLoadError) -> String {
        if let text = textReadInPlace(at: path) { return text }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SuiteLoadError(diagnostics: [.error("cannot read the suite file", at: start)], source: nil)
        }
        guard let source = String(data: data, encoding: .utf8) else {
            throw SuiteLoadError(
                diagnostics: [
                    .error("the suite file is not valid UTF-8", at: invalidUTF8Location(in: data, of: start))
                ],
                source: nil)
        }
        return source
    }

    /// The text of the regular file at `path` read straight into the string's storage: one copy of the file's
    /// bytes, where reading them into `Data` and then into a string made two (1.3 MB each at 10,000 tests, every
    /// page of both faulted in before the text is composed). `nil`, and the caller reads the file as before, when
    /// the file cannot be opened or read whole, or its bytes have a 0xEF byte: the string's initializer repairs
    /// text that is not UTF-8 with U+FFFD (EF BF BD), and a byte order mark (EF BB BF) is the other reading's to
    /// keep or drop, so only text without either is taken here. `SuiteFileReadingTests` compares the two.
    static func textReadInPlace(at path: String) -> String? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            let size = Int(exactly: status.st_size)
        else { return nil }
        var whole = false
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var filled = 0
            while filled < size {
                let count = read(file, base + filled, size - filled)
                if count > 0 {
                    filled += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return 0
                }
            }
            // A file that grew since `fstat` is read by the other reading, to its end.
            var extra: UInt8 = 0
            whole = read(file, &extra, 1) == 0
            return whole ? filled : 0
        }
        guard whole, text.utf8.count == size else { return nil }
        let hasEF = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, 0xEF, bytes.count) != nil } ?? false
        }
        return hasEF == false ? text : nil
    }

    /// Where the first byte that is not valid UTF-8 is: its line, and its column counted in the Unicode scalars
    /// before it on that line, plus one (a file that is valid UTF-8 gives the start).
    static func invalidUTF8Location(in data: Data, of start: SourceLocation) -> SourceLocation {
        var location = start
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") {
                    location.line += 1
                    location.column = 1
                } else {
                    location.column += 1
                }
            case .error:
                return location
            case .emptyInput:
                return start
            }
        }
    }

    /// Loads a suite from its text; `file` is the path used in locations and to resolve relative file paths.
    package func load(source: String, file: String) throws(SuiteLoadError) -> Suite {
        let composed: (document: YAMLDocument, root: YAMLNode?)
        do {
            if parsesTestsInParallel, let inParts = YAMLComposer.composeInParts(source) {
                composed = inParts
            } else {
                composed = try YAMLComposer.compose(source)
            }
        } catch {
            let text = SourceText(file: file, text: source)
            throw SuiteLoadError(diagnostics: [YAMLErrorDiagnostic.make(error, text: text)], source: source)
        }
        guard let root = composed.root else {
            let at = SourceLocation(file: file, line: 1, column: 1)
            throw SuiteLoadError(
                diagnostics: [.error("the suite file is empty; it needs 'tests'", at: at)], source: source)
        }
        let context = SuiteParseContext(
            file: file, directory: FilePaths.directory(of: file), document: composed.document, root: root,
            source: source, environment: environment, overrides: overrides)
        context.shared.parsesTestsInParallel = parsesTestsInParallel
        context.shared.defersUnsetEnvironment = defersUnsetEnvironment
        if var openapi = defaultOpenAPI {
            openapi.location = SourceLocation(file: file, line: 1, column: 1)
            context.shared.defaultOpenAPI = openapi
        }
        let parsed = SuiteParser.parse(root, in: context)
        var suite = parsed.suite
        // Computed when a command reads it (a run's selection does, `validate` does not).
        suite?.digestOfSource = SourceDigest(of: source)
        if let setting = parsed.suite?.openapi, !context.hasErrors {
            switch contracts.contract(for: setting) {
            case .loaded(let contract):
                suite?.contract = SuiteContract(contract: contract, setting: setting)
                suite?.warnings += contracts.warnings(of: contract, for: setting)
            case .failed(let problems, let sources):
                for diagnostic in OpenAPIContractStore.diagnostics(problems, for: setting) {
                    context.report(diagnostic)
                }
                context.shared.includedSources.merge(sources) { current, _ in current }
            }
        }
        suite?.includedFiles = context.shared.includedFiles
        suite?.secretOverrides = secretOverrides.intersection(overrides.keys)
        if var unset = context.shared.unsetEnvironment {
            if context.hasErrors {
                // A file that fails anyway reports every problem, as without deferring.
                for diagnostic in unset.all { context.report(diagnostic) }
            } else {
                unset.source = source
                unset.includedSources = context.shared.includedSources
                suite?.unsetEnvironment = unset
            }
        }
        guard let suite, !context.hasErrors else {
            var failure = SuiteLoadError(
                diagnostics: Self.sorted(context.diagnostics), source: source,
                includedSources: context.shared.includedSources)
            failure.includedFiles = context.shared.includedFiles
            failure.includeCycleFiles = context.shared.includeCycleFiles
            failure.declaresTests = parsed.declaresTests
            throw failure
        }
        return suite
    }

    /// Diagnostics in source order (stable for diagnostics at the same place).
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.location, rhs.element.location)
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

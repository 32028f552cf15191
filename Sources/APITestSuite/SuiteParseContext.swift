import APITestJSON
import APITestJSONSchema
import APITestSupport
import APITestYAML

/// What the parsing functions read a YAML file with and report to: the file (its composed document, its text,
/// its place on the include stack) and, shared with the contexts of every file the suite includes, the diagnostic
/// sink, the caches and what the loader reports about includes (`Shared`).
///
/// The per-construct parsers (`SuiteParser`, `TestParser`, `RequestParser`, `ExpectParser`, ...) are functions of a
/// node and a context that return the model value they build. The context's own methods read nodes of its file
/// (`mapping`, `text`, `template`, ...) and report problems located in it. An included file gets a context of its
/// own (`including(_:)`) over the same `Shared`, so its problems land in the same list and nothing has to be merged
/// back. The file's parts are constants, so that reading a node costs no reference counting.
final class SuiteParseContext {
    /// The path shown in locations: as given to the loader for the suite, as named from the current directory for
    /// an included file.
    let file: String
    /// The file's directory; relative file names in it resolve against it.
    let directory: String
    let document: YAMLDocument
    /// The document's root; `nil` for an empty file.
    let root: YAMLNode?
    let source: String
    /// The include stack under this file, to report include cycles: empty for the suite itself; for an included
    /// file, the canonical paths of the suite and of each include down to this file.
    let includeChain: [String]
    /// How many errors had been reported when this file's parsing began (see `fileHasErrors`).
    let errorBaseline: Int
    /// What the whole load shares.
    let shared: Shared

    /// The source indexed by Unicode scalars; built on first use (quoted values, placeholders, some errors).
    private(set) lazy var text = SourceText(file: file, text: source)
    /// True when libyaml's marks count lines and columns as `text` does (see `SourceText.marksMatchLibyaml`).
    private(set) lazy var marksMatchText = SourceText.marksMatchLibyaml(in: source)
    /// The texts of the long scalars read so far (see `scalar(_:)`).
    var longScalarTexts: [YAMLNode: String] = [:]
    /// The texts of the short map keys read so far (see `plainEntries(of:)`).
    let keyTexts = KeyTextCache()

    /// The context of the suite file `file` (composed into `document`).
    convenience init(
        file: String, directory: String, document: YAMLDocument, root: YAMLNode?, source: String,
        environment: [String: String], overrides: [String: String]
    ) {
        self.init(
            file: file, directory: directory, document: document, root: root, source: source, includeChain: [],
            shared: Shared(environment: environment, overrides: overrides))
    }

    private init(
        file: String, directory: String, document: YAMLDocument, root: YAMLNode?, source: String,
        includeChain: [String], shared: Shared
    ) {
        self.file = file
        self.directory = directory
        self.document = document
        self.root = root
        self.source = source
        self.includeChain = includeChain
        self.shared = shared
        self.errorBaseline = shared.errorCount
    }

    /// A context for parsing a part of this file on another thread (`TestParser.ParsedParts`): the same file,
    /// document and include stack (its source text is built in it if the part needs it), and a `Shared` of its own
    /// that starts from this one's settings and value budget; `Shared.absorb(_:)` takes back what the part found.
    /// Its diagnostics are never shown: a part that reports anything makes the file parse again on one thread, so
    /// that every diagnostic is found as before.
    func forkedForParallelParsing() -> SuiteParseContext {
        SuiteParseContext(
            file: file, directory: directory, document: document, root: root, source: source,
            includeChain: includeChain, shared: shared.forked())
    }

    /// The context of a file this one includes, one level up the include stack, sharing this context's state.
    func including(
        file: String, directory: String, document: YAMLDocument, root: YAMLNode?, source: String,
        includeChain: [String]
    ) -> SuiteParseContext {
        SuiteParseContext(
            file: file, directory: directory, document: document, root: root, source: source,
            includeChain: includeChain, shared: shared)
    }

    // MARK: - Reporting

    /// Adds a problem.
    func report(_ diagnostic: Diagnostic) {
        shared.report(diagnostic)
    }

    /// Every problem found so far, in every file, in the order found.
    var diagnostics: [Diagnostic] { shared.diagnostics }

    /// True when an error has been reported, in any file.
    var hasErrors: Bool { shared.errorCount > 0 }

    /// True when an error has been reported in this file (or in a file it includes) since its parsing began.
    var fileHasErrors: Bool { shared.errorCount > errorBaseline }

    /// The process environment (`env.NAME`).
    var environment: [String: String] { shared.environment }

    /// `--var` values.
    var overrides: [String: String] { shared.overrides }
}

// MARK: - Shared state

extension SuiteParseContext {
    /// What the parsing of one suite shares between the suite file and every file it includes: the diagnostic sink,
    /// the value budget, the caches, the deferred URL checks and the include bookkeeping the loader reports.
    final class Shared {
        /// The process environment (`env.NAME`).
        let environment: [String: String]
        /// `--var` values.
        let overrides: [String: String]
        /// `--openapi FILE`: the contract of a suite that names none (its `location` is replaced by the suite's).
        var defaultOpenAPI: OpenAPISetting?
        /// Whether a long `tests` list may be parsed in parts on several cores (`SuiteLoader.parsesTestsInParallel`).
        var parsesTestsInParallel = true
        /// Whether uses of unset environment variables are kept for the selection (`SuiteLoader.defersUnsetEnvironment`).
        var defersUnsetEnvironment = false
        /// The uses of unset environment variables `ScopeChecker` kept when deferring them; `nil` when there are none.
        var unsetEnvironment: UnsetEnvironment?

        /// Every problem found so far, in the order found.
        private(set) var diagnostics: [Diagnostic] = []
        /// How many of `diagnostics` are errors.
        private(set) var errorCount = 0

        /// The texts of included files (and forEach CSV files) by their location path, for rendering diagnostics.
        var includedSources: [String: String] = [:]
        /// The settings files included so far (a settings file counts once, where it is first included).
        var settingsFiles: Set<String> = []
        /// The included files, absolute, symbolic links resolved.
        var includedFiles: Set<String> = []
        /// The files found on an include cycle, absolute, symbolic links resolved: never shared fragments.
        var includeCycleFiles: Set<String> = []

        /// How many templates with a placeholder have been parsed (`parseTemplate(_:at:)`): a step whose parse left
        /// it unchanged has only literal templates (`Step.hasOnlyLiteralTemplates`).
        var placeholderTemplateCount = 0
        /// How many value nodes have been built, to stop alias bombs.
        var valueNodeCount = 0
        /// How many bytes of scalar text value nodes have taken, to stop alias bombs made of long scalars.
        var valueByteCount = 0
        /// Whether the byte cap has been reported (once per suite).
        var reportedValueBytes = false
        /// How many steps, groups and step includes have been read, includes expanded, to stop include bombs.
        var stepCount = 0
        /// How many times files have been included, to stop include bombs.
        var includeCount = 0
        /// The included files composed so far, by absolute path: a file included many times is read and composed
        /// once.
        var composedIncludes: [String: ComposedFile] = [:]
        /// The included files found so far, absolute and canonical, by the folder they were named from and the path
        /// as written (separated by NUL).
        var includeTargets: [String: (absolute: String, canonical: String)] = [:]
        /// JSONPath expressions already compiled, by their text's code points (suites repeat the same few paths;
        /// a `[String: …]` key would give `$['e\u{301}']` the path compiled for the canonically equal `$['\u{E9}']`).
        var jsonPaths: [CodePointKey: JSONPath] = [:]
        /// The JSONPath expression last compiled or found in `jsonPaths`, and its compiled path.
        var lastJSONPath: (expression: String, compiled: JSONPath)?
        /// Regular expressions already compiled, by their pattern's code points (as `jsonPaths`).
        var regularExpressions: [CodePointKey: RegularExpression] = [:]
        /// Schema files already compiled, by absolute path (tests often share one).
        var compiledSchemas: [String: JSONSchema] = [:]
        /// Request URLs to check once the variables and the suite's base URL are known (URLs with placeholders, and
        /// those of a suite without a base URL or of an included file); `ScopeChecker` checks them after parsing.
        var urlChecks: [URLCheck] = []

        /// Empty state for a load with `environment` and `overrides`.
        init(environment: [String: String], overrides: [String: String]) {
            self.environment = environment
            self.overrides = overrides
        }

        /// Adds a problem.
        func report(_ diagnostic: Diagnostic) {
            if diagnostic.severity == .error { errorCount += 1 }
            diagnostics.append(diagnostic)
        }

        // MARK: - Parts parsed in parallel

        /// An empty state for a part of the file parsed on another thread: this load's settings, and the value
        /// budget spent so far (so that a part which alone passes the cap reports it, and falls back).
        func forked() -> Shared {
            let forked = Shared(environment: environment, overrides: overrides)
            forked.defaultOpenAPI = defaultOpenAPI
            forked.valueNodeCount = valueNodeCount
            forked.valueByteCount = valueByteCount
            forked.reportedValueBytes = reportedValueBytes
            forked.stepCount = stepCount
            forked.includeCount = includeCount
            forked.composedIncludes = composedIncludes
            forked.includeTargets = includeTargets
            return forked
        }

        /// Takes back what the parts of the file parsed in parallel found, in the file's order (`parts` were forked
        /// from this state, in that order, and reported nothing): their deferred URL checks, compiled expressions
        /// and schemas, files read, and value budget. Returns false, changing nothing, when the parts together
        /// pass the value budget: the file is then parsed again on one thread, which reports where.
        func absorb(_ parts: [Shared]) -> Bool {
            let nodes = parts.reduce(valueNodeCount) { $0 + ($1.valueNodeCount - valueNodeCount) }
            let bytes = parts.reduce(valueByteCount) { $0 + ($1.valueByteCount - valueByteCount) }
            let steps = parts.reduce(stepCount) { $0 + ($1.stepCount - stepCount) }
            let includes = parts.reduce(includeCount) { $0 + ($1.includeCount - includeCount) }
            guard nodes <= LoadBudget.maximumValueNodes, bytes <= LoadBudget.maximumValueBytes,
                steps <= LoadBudget.maximumSteps, includes <= LoadBudget.maximumIncludes
            else {
                return false
            }
            valueNodeCount = nodes
            valueByteCount = bytes
            stepCount = steps
            includeCount = includes
            for part in parts {
                urlChecks += part.urlChecks
                jsonPaths.merge(part.jsonPaths) { current, _ in current }
                regularExpressions.merge(part.regularExpressions) { current, _ in current }
                compiledSchemas.merge(part.compiledSchemas) { current, _ in current }
                includedSources.merge(part.includedSources) { current, _ in current }
                settingsFiles.formUnion(part.settingsFiles)
                includedFiles.formUnion(part.includedFiles)
                includeCycleFiles.formUnion(part.includeCycleFiles)
                composedIncludes.merge(part.composedIncludes) { current, _ in current }
            }
            return true
        }
    }

    /// An included file's text and composed document.
    struct ComposedFile {
        let source: String
        let document: YAMLDocument
        let root: YAMLNode?
    }

    /// A request URL and the width of its node, checked after parsing.
    struct URLCheck {
        let template: Template
        let length: Int
        /// Whether ws:// and wss:// are accepted too (a GraphQL subscription's URL).
        var allowsWebSocket = false
    }
}

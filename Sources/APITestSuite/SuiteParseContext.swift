import APITestJSONSchema
import APITestSupport

/// What the parsing of one suite shares between the suite file and every file it includes: the file being parsed
/// (the top of the include stack), the diagnostic sink, the caches and what the loader reports about includes.
///
/// One context lives for one `SuiteLoader.load`. The per-construct parsers (`SuiteParser`, `TestParser`,
/// `RequestParser`, `ExpectParser`, ...) are functions of a node and this context that return the model value they
/// build; the context's own methods read nodes of the current file (`mapping`, `text`, `template`, ...) and
/// report problems located in it. An included file is parsed in the same context (`parsing(_:_:)`), so its
/// problems land in the same list and nothing has to be merged back.
final class SuiteParseContext {
    /// The process environment (`env.NAME`).
    let environment: [String: String]
    /// `--var` values.
    let overrides: [String: String]

    // MARK: - The file being parsed

    /// The file being parsed: the suite, or the innermost file it includes.
    private(set) var file: ParsedFile
    /// The files that include `file`, outermost (the suite) first.
    private(set) var includeStack: [ParsedFile] = []

    // MARK: - Diagnostics

    /// Every problem found so far, in the order found.
    private(set) var diagnostics: [Diagnostic] = []
    /// How many of `diagnostics` are errors.
    private(set) var errorCount = 0

    // MARK: - Includes

    /// The texts of included files (and forEach CSV files) by their location path, for rendering diagnostics.
    var includedSources: [String: String] = [:]
    /// The settings files included so far by the suite (a settings file counts once, where it is first included).
    var settingsFiles: Set<String> = []
    /// The included files, absolute, symbolic links resolved.
    var includedFiles: Set<String> = []
    /// The files found on an include cycle, absolute, symbolic links resolved: never shared fragments.
    var includeCycleFiles: Set<String> = []

    // MARK: - Budgets and caches

    /// How many value nodes have been built, to stop alias bombs.
    var valueNodeCount = 0
    /// The most value nodes a suite may expand to.
    static let maximumValueNodes = 1_000_000
    /// How many bytes of scalar text value nodes have taken, to stop alias bombs made of long scalars.
    var valueByteCount = 0
    /// Whether the byte cap has been reported (once per suite).
    var reportedValueBytes = false
    /// The most bytes of scalar text a suite's values may expand to.
    static let maximumValueBytes = 64 << 20
    /// JSONPath expressions already found valid (suites repeat the same few paths).
    var validJSONPaths: Set<String> = []
    /// Schema files already compiled, by absolute path (tests often share one).
    var compiledSchemas: [String: JSONSchema] = [:]
    /// Request URLs to check once the variables are known (relative URLs need a base URL); `ScopeChecker` checks
    /// them after parsing.
    var urlChecks: [URLCheck] = []

    /// A request URL and the width of its node, checked after parsing.
    struct URLCheck {
        let template: Template
        let length: Int
    }

    /// A context for parsing `file`, the suite.
    init(file: ParsedFile, environment: [String: String], overrides: [String: String]) {
        self.file = file
        self.environment = environment
        self.overrides = overrides
    }

    // MARK: - Reporting

    /// Adds a problem.
    func report(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error { errorCount += 1 }
        diagnostics.append(diagnostic)
    }

    /// True when an error has been reported.
    var hasErrors: Bool { errorCount > 0 }

    /// True when an error has been reported in the file being parsed (or in a file it includes).
    var fileHasErrors: Bool { errorCount > file.errorBaseline }

    // MARK: - Include stack

    /// Runs `body` (the parsing of an included file) with `included` as the file being parsed, then returns to the
    /// including file.
    func parsing<Result>(_ included: ParsedFile, _ body: () -> Result) -> Result {
        includeStack.append(file)
        file = included
        defer { file = includeStack.removeLast() }
        return body()
    }
}

import APITestJSONSchema
import APITestSupport

/// What one suite load shares between the suite file and every file it includes: the diagnostic sink, the
/// caches and what the loader reports about includes.
///
/// One context lives for one `SuiteLoader.load`; the parser of an included file writes to the same context as the
/// suite's, so nothing has to be merged back when an include is done.
final class SuiteParseContext {
    /// The process environment (`env.NAME`).
    let environment: [String: String]
    /// `--var` values.
    let overrides: [String: String]

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
    static let maximumValueNodes = 1_000_000
    /// How many bytes of scalar text value nodes have taken, to stop alias bombs made of long scalars.
    var valueByteCount = 0
    /// Whether the byte cap has been reported (once per suite).
    var reportedValueBytes = false
    static let maximumValueBytes = 64 << 20
    /// JSONPath expressions already found valid (suites repeat the same few paths).
    var validJSONPaths: Set<String> = []
    /// Schema files already compiled, by absolute path (tests often share one).
    var compiledSchemas: [String: JSONSchema] = [:]
    /// Request URLs to check once variables are known (relative URLs need a base URL).
    var urlChecks: [URLCheck] = []

    /// A request URL and the width of its node, checked after parsing.
    struct URLCheck {
        let template: Template
        let length: Int
    }

    init(environment: [String: String], overrides: [String: String]) {
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
}

import APITestJSONSchema
import APITestSupport
import Foundation

/// Turns one composed YAML document into a `Suite`, collecting every problem as a located diagnostic.
///
/// Parsing reports type errors, unknown keys and bad values while building the model; a second pass
/// (`SuiteParser+Scope`) checks every placeholder against the variables, `--var` values, environment and
/// captures visible where it is used.
final class SuiteParser {
    let file: String
    let directory: String
    let document: YAMLDocument
    let source: String
    /// The source indexed by Unicode scalars; built on first use (quoted values, placeholders, some errors).
    private(set) lazy var text = SourceText(file: file, text: source)
    /// True when libyaml's marks count lines and columns as `text` does (see `SourceText.marksMatchLibyaml`).
    private(set) lazy var marksMatchText = SourceText.marksMatchLibyaml(in: source)
    /// The state this file's parser shares with the parsers of the files it includes (and of the file including it).
    let context: SuiteParseContext
    /// The include chain of this file: empty for the suite itself; for an included file, the canonical paths of
    /// the suite and of each include down to it, to report include cycles.
    let includeChain: [String]
    /// How many errors had been reported when this file's parsing began (`hasErrors` counts this file's only).
    let errorBaseline: Int
    /// The environment variables the suite uses (`env.NAME`) that are set.
    var usedEnvironment: Set<String> = []
    /// Whether the suite's top-level map has a `tests` key (a file that declares tests is never a fragment).
    var declaresTests = false
    /// The root node of an included file's document.
    var root: YAMLNode?

    var environment: [String: String] { context.environment }
    var overrides: [String: String] { context.overrides }

    static let suiteKeys = [
        "name", "include", "baseURL", "variables", "defaults", "security", "response", "setup", "tests", "teardown",
    ]
    static let defaultsKeys = ["headers", "timeout", "followRedirects", "maxRedirects", "retry", "maxResponseSize"]

    init(
        file: String, directory: String, document: YAMLDocument, source: String, context: SuiteParseContext,
        includeChain: [String] = []
    ) {
        self.file = file
        self.directory = directory
        self.document = document
        self.source = source
        self.context = context
        self.includeChain = includeChain
        self.errorBaseline = context.errorCount
    }

    /// True when an error has been reported in this file (or in the files it includes).
    var hasErrors: Bool { context.errorCount > errorBaseline }

    // MARK: - Suite

    /// Parses the document's root; `nil` when the suite has errors (they are in `diagnostics`).
    func parseSuite(root: YAMLNode) -> Suite? {
        guard isMapping(root) else {
            error("expected a map at the top level of the suite, found \(kindName(of: root))", at: root)
            return nil
        }
        let entries = mapping(root, for: "suite") ?? []
        checkKeys(entries, allowed: Self.suiteKeys, in: "the suite")

        var name = Self.defaultName(forFile: file)
        if let entry = entries[key: "name"], let text = text(entry.value, for: "name") {
            name = text
        }
        // Included files come first; the suite's own settings then add to them and win over them.
        var shared = SharedSettings()
        if let include = entries[key: "include"] {
            for (path, node) in includePaths(include.value) {
                if let settings = includeSettings(path, at: node) { shared.add(settings) }
            }
        }
        var own = SharedSettings()
        own.variables = entries[key: "variables"].map { parseVariables($0.value) } ?? []
        own.baseURL = entries[key: "baseURL"].flatMap { template($0.value, for: "baseURL") }
        if let entry = entries[key: "defaults"] {
            own.defaults = parseDefaults(entry.value)
            own.setsFollowRedirects = plainValue(forKey: "followRedirects", in: entry.value) != nil
        }
        shared.add(own)
        let variables = shared.variables
        let baseURL = shared.baseURL
        let defaults = shared.defaults ?? RequestDefaults()
        let ownSetup = entries[key: "setup"].map { parseSteps($0.value, owner: "setup", hasBaseURL: baseURL != nil) }
        let setup = shared.setup + (ownSetup ?? [])
        var tests: [TestCase] = []
        declaresTests = entries[key: "tests"] != nil
        if let entry = entries[key: "tests"] {
            tests = parseTests(entry.value, hasBaseURL: baseURL != nil)
        } else {
            error("the suite has no 'tests'; add a list of tests", at: location(of: root))
        }

        let ownTeardown = entries[key: "teardown"].map {
            parseSteps($0.value, owner: "teardown", hasBaseURL: baseURL != nil)
        }
        let teardown = (ownTeardown ?? []) + shared.teardown
        var suite = Suite(
            file: file, directory: directory, name: name, baseURL: baseURL, variables: variables,
            defaults: defaults, tests: tests, overrides: overrides)
        suite.setup = setup
        suite.teardown = teardown
        suite.security = entries[key: "security"].flatMap { parseSecurity($0) } ?? shared.security
        if let entry = entries[key: "response"] { suite.responseDecoding = parseResponseDecoding(entry.value) }
        for reserved in ["setup", "teardown"] {
            if let test = tests.first(where: { $0.name == reserved }),
                !(reserved == "setup" ? suite.setup : suite.teardown).isEmpty
            {
                error("a test cannot be named '\(reserved)' in a suite with \(reserved) steps", at: test.location)
            }
        }
        checkScopes(of: suite)
        guard !hasErrors else { return nil }
        var result = suite
        result.environment = environment.filter { usedEnvironment.contains($0.key) }
        result.warnings = context.diagnostics.filter { $0.severity == .warning }
        return result
    }

    /// The file name without its directory and extension.
    static func defaultName(forFile file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }

    // MARK: - Variables and defaults

    func parseVariables(_ node: YAMLNode) -> [Suite.Variable] {
        guard let entries = mapping(node, for: "variables") else { return [] }
        var variables: [Suite.Variable] = []
        for entry in entries where checkVariableName(entry.key, at: entry.keyNode, what: "variable") {
            variables.append(
                Suite.Variable(
                    name: entry.key, value: templateValue(entry.value), location: location(of: entry.keyNode)))
        }
        return variables
    }

    func parseDefaults(_ node: YAMLNode) -> RequestDefaults {
        var defaults = RequestDefaults()
        guard let entries = mapping(node, for: "defaults") else { return defaults }
        checkKeys(entries, allowed: Self.defaultsKeys, in: "defaults")
        for entry in entries {
            switch entry.key {
            case "headers": defaults.headers = parseHeaders(entry.value)
            case "timeout": defaults.timeout = duration(entry.value, for: "timeout")
            case "followRedirects": defaults.followRedirects = bool(entry.value, for: "followRedirects") ?? true
            case "maxRedirects": defaults.maxRedirects = integer(entry.value, for: "maxRedirects", in: 0...1000)
            case "retry": defaults.retry = parseRetry(entry.value)
            case "maxResponseSize": defaults.maxResponseSize = byteSize(entry.value, for: "maxResponseSize")
            default: break
            }
        }
        return defaults
    }
}

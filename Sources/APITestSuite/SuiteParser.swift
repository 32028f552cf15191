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
    let environment: [String: String]
    let overrides: [String: String]
    var diagnostics: [Diagnostic] = []
    /// The environment variables the suite uses (`env.NAME`) that are set.
    var usedEnvironment: Set<String> = []
    /// How many value nodes `templateValue` has built, to stop alias bombs.
    var valueNodeCount = 0
    static let maximumValueNodes = 1_000_000
    /// JSONPath expressions already found valid (suites repeat the same few paths).
    var validJSONPaths: Set<String> = []
    /// Request URLs to check once variables are known (relative URLs need a base URL).
    var urlChecks: [URLCheck] = []

    /// A request URL and the width of its node, checked after parsing.
    struct URLCheck {
        let template: Template
        let length: Int
    }

    static let suiteKeys = ["name", "baseURL", "variables", "defaults", "security", "tests"]
    static let defaultsKeys = ["headers", "timeout", "followRedirects", "maxRedirects"]

    init(
        file: String, directory: String, document: YAMLDocument, source: String, environment: [String: String],
        overrides: [String: String]
    ) {
        self.file = file
        self.directory = directory
        self.document = document
        self.source = source
        self.environment = environment
        self.overrides = overrides
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

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
        let variables = entries[key: "variables"].map { parseVariables($0.value) } ?? []
        let baseURL = entries[key: "baseURL"].flatMap { template($0.value, for: "baseURL") }
        let defaults = entries[key: "defaults"].map { parseDefaults($0.value) } ?? RequestDefaults()
        var tests: [TestCase] = []
        if let entry = entries[key: "tests"] {
            tests = parseTests(entry.value, hasBaseURL: baseURL != nil)
        } else {
            error("the suite has no 'tests'; add a list of tests", at: location(of: root))
        }

        var suite = Suite(
            file: file, directory: directory, name: name, baseURL: baseURL, variables: variables,
            defaults: defaults, tests: tests, overrides: overrides)
        suite.security = entries[key: "security"].flatMap { parseSecurity($0) }
        checkScopes(of: suite)
        guard !hasErrors else { return nil }
        var result = suite
        result.environment = environment.filter { usedEnvironment.contains($0.key) }
        result.warnings = diagnostics.filter { $0.severity == .warning }
        return result
    }

    /// The file name without its directory and extension.
    static func defaultName(forFile file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }

    // MARK: - Variables and defaults

    private func parseVariables(_ node: YAMLNode) -> [Suite.Variable] {
        guard let entries = mapping(node, for: "variables") else { return [] }
        var variables: [Suite.Variable] = []
        for entry in entries where checkVariableName(entry.key, at: entry.keyNode, what: "variable") {
            variables.append(
                Suite.Variable(
                    name: entry.key, value: templateValue(entry.value), location: location(of: entry.keyNode)))
        }
        return variables
    }

    private func parseDefaults(_ node: YAMLNode) -> RequestDefaults {
        var defaults = RequestDefaults()
        guard let entries = mapping(node, for: "defaults") else { return defaults }
        checkKeys(entries, allowed: Self.defaultsKeys, in: "defaults")
        for entry in entries {
            switch entry.key {
            case "headers": defaults.headers = parseHeaders(entry.value)
            case "timeout": defaults.timeout = duration(entry.value, for: "timeout")
            case "followRedirects": defaults.followRedirects = bool(entry.value, for: "followRedirects") ?? true
            case "maxRedirects": defaults.maxRedirects = integer(entry.value, for: "maxRedirects", in: 0...1000)
            default: break
            }
        }
        return defaults
    }
}

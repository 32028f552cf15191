import APITestSupport

/// A loaded, validated suite file: its variables, request defaults and tests, with source locations.
public struct Suite: Sendable, Hashable {
    /// The suite file's path as given to the loader.
    public var file: String
    /// The directory of `file`, absolute; relative file paths in the suite resolve against it.
    public var directory: String
    /// The suite's `name`, or the file name without its extension.
    public var name: String
    /// The base URL relative request URLs resolve against.
    public var baseURL: Template?
    /// The suite's variables in document order; each may use earlier ones, `--var` values and `env.NAME`.
    public var variables: [Variable]
    public var defaults: RequestDefaults
    public var tests: [TestCase]
    /// The files the suite includes (settings and steps), as absolute paths with symbolic links resolved.
    public var includedFiles: Set<String> = []
    /// How response bodies are decoded (`response:`).
    public var responseDecoding = ResponseDecoding()
    /// Steps run once before the tests; their captures are visible to every test and to `teardown`.
    public var setup: [Step] = []
    /// Steps run once after the tests, also after failures and on Ctrl-C.
    public var teardown: [Step] = []
    /// Warnings found while loading (errors prevent a `Suite` from being made at all).
    public var warnings: [Diagnostic]
    /// The `--var` values given to the loader; they replace suite variables of the same name.
    public var overrides: [String: String]
    /// The names among `overrides` whose values are secret (masked in reports).
    public var secretOverrides: Set<String> = []
    /// The values of the environment variables the suite uses (`env.NAME`), read at load time.
    public var environment: [String: String]
    /// The `security:` block: certificate trust and pinning for the suite's requests; `nil` for the defaults.
    public var security: SuiteSecurity?

    public init(
        file: String, directory: String, name: String, baseURL: Template?, variables: [Variable],
        defaults: RequestDefaults, tests: [TestCase], warnings: [Diagnostic] = [], overrides: [String: String] = [:],
        environment: [String: String] = [:]
    ) {
        self.file = file
        self.directory = directory
        self.name = name
        self.baseURL = baseURL
        self.variables = variables
        self.defaults = defaults
        self.tests = tests
        self.warnings = warnings
        self.overrides = overrides
        self.environment = environment
    }

    /// One entry of `variables:`.
    public struct Variable: Sendable, Hashable {
        public var name: String
        public var value: TemplateValue
        public var location: SourceLocation

        public init(name: String, value: TemplateValue, location: SourceLocation) {
            self.name = name
            self.value = value
            self.location = location
        }
    }
}

package import APITestSupport
import APITestYAML

/// A loaded, validated suite file: its variables, request defaults and tests, with source locations.
package struct Suite: Sendable, Hashable {
    /// The suite file's path as given to the loader.
    package var file: String
    /// The directory of `file`, absolute; relative file paths in the suite resolve against it.
    package var directory: String
    /// The suite's `name`, or the file name without its extension.
    package var name: String
    /// The base URL relative request URLs resolve against.
    package var baseURL: Template?
    /// The suite's variables in document order; each may use earlier ones, `--var` values and `env.NAME`.
    package var variables: [Variable]
    package var defaults: RequestDefaults
    package var tests: [TestCase]
    /// The files the suite includes (settings and steps), as absolute paths with symbolic links resolved.
    package var includedFiles: Set<String> = []
    /// How response bodies are decoded (`response:`).
    package var responseDecoding = ResponseDecoding()
    /// Steps run once before the tests; their captures are visible to every test and to `teardown`.
    package var setup: [Step] = []
    /// Steps run once after the tests, also after failures and on Ctrl-C.
    package var teardown: [Step] = []
    /// Warnings found while loading (errors prevent a `Suite` from being made at all).
    package var warnings: [Diagnostic]
    /// The `--var` values given to the loader; they replace suite variables of the same name.
    package var overrides: [String: String]
    /// The names among `overrides` whose values are secret (masked in reports).
    package var secretOverrides: Set<String> = []
    /// The values of the environment variables the suite uses (`env.NAME`), read at load time.
    package var environment: [String: String]
    /// The `security:` block: certificate trust and pinning for the suite's requests; `nil` for the defaults.
    package var security: SuiteSecurity?
    /// `openapi:` (or `--openapi`): the OpenAPI document every response is checked against; `nil` for none.
    package var openapi: OpenAPISetting?
    /// The document of `openapi`, loaded and compiled; set whenever `openapi` is.
    package var contract: SuiteContract?
    /// `grpc:`: where the message types of the suite's `grpc:` steps come from (`.proto` files or reflection).
    package var grpc: GRPCSchemaSetting?
    /// The schema `grpc.proto` compiled to when the suite loaded; nil without `.proto` files.
    package var grpcSchema: SuiteGRPCSchema?
    /// `load: {thresholds: [...]}`: the thresholds `apitest load` holds the suite's tests to (besides `--threshold`).
    package var loadThresholds: [LoadThreshold] = []
    /// The SHA-256 of the suite file's text, set by the loader and computed when first read (`sourceDigest`).
    package var digestOfSource = SourceDigest()
    /// The uses of unset environment variables a loader that defers them to the selection kept (empty otherwise:
    /// the loader reported them as errors).
    package var unsetEnvironment = UnsetEnvironment()

    package init(
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
    package struct Variable: Sendable, Hashable {
        package var name: String
        package var value: TemplateValue
        package var location: SourceLocation

        package init(name: String, value: TemplateValue, location: SourceLocation) {
            self.name = name
            self.value = value
            self.location = location
        }
    }
}

import APITestSupport
import APITestYAML

/// Turns the root of a suite file into a `Suite`, collecting every problem as a located diagnostic in the context.
///
/// Parsing is a set of per-construct functions, each of a node and the `SuiteParseContext`, returning the value it
/// builds (`TestParser`, `StepParser`, `RequestParser`, `ExpectParser`, `CheckParser`, ...). They report type errors,
/// unknown keys and bad values while building the model; a second pass (`ScopeChecker`) then checks every
/// placeholder against the variables, `--var` values, environment and captures visible where it is used.
enum SuiteParser {
    /// The keys of a suite's top-level map.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, include, baseURL, variables, defaults, security, openapi, response, setup, tests, teardown, load
        case grpc

        var schema: SchemaValue {
            switch self {
            case .name:
                .described("The suite's name in reports (default: the file name without extension).", ref: "text")
            case .include, .variables, .defaults, .security, .openapi, .response: .ref(rawValue)
            case .grpc: .ref("grpcSchema")
            case .baseURL:
                .described(
                    "What relative request URLs resolve against; must render to an absolute http:// or https:// "
                        + "URL. Templated.", ["type": "string", "pattern": #"^(?:[Hh][Tt][Tt][Pp][Ss]?://|.*\{\{)"#])
            case .setup:
                .described("Steps run once before the tests; their captures are visible to every test.", ref: "steps")
            case .tests:
                .described("The tests; at least one.", ["type": "array", "minItems": 1, "items": .ref("test")])
            case .teardown: .described("Steps run once after the tests, also after failures.", ref: "steps")
            case .load:
                .described(
                    "What `apitest load` holds the suite's tests to.",
                    ["type": "object", "additionalProperties": false, "properties": LoadKey.properties])
            }
        }
    }

    /// The keys of a suite's `load:`.
    enum LoadKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case thresholds

        var schema: SchemaValue {
            .described(
                "Rules such as p95<20ms, errors<0.1%, rate>1900/s (besides --threshold).",
                ["type": "array", "items": ["type": "string", "pattern": #"^\s*[A-Za-z0-9().]+\s*[<>]=?"#]])
        }
    }

    /// The keys of a suite's top-level map, as written.
    static let keys = Key.names

    // MARK: - Suite

    /// Parses the suite file's root: the suite, `nil` when it has errors (they are in the context), and whether its
    /// top-level map has a `tests` key (a file that declares tests is never a shared fragment).
    static func parse(_ root: YAMLNode, in context: SuiteParseContext) -> (suite: Suite?, declaresTests: Bool) {
        guard context.isMapping(root) else {
            context.error(
                "expected a map at the top level of the suite, found \(context.kindName(of: root))", at: root)
            return (nil, false)
        }
        let entries = context.mapping(root, for: "suite") ?? []
        context.checkKeys(entries, of: Key.self, in: "the suite")
        let file = context.file
        let directory = context.directory

        var name = defaultName(forFile: file)
        if let entry = entries[Key.name], let text = context.text(entry.value, for: "name") {
            name = text
        }
        // Included files come first; the suite's own settings then add to them and win over them.
        var shared = SharedSettings()
        if let include = entries[Key.include] {
            for (path, node) in IncludeParser.paths(include.value, in: context) {
                if let settings = IncludeParser.settings(path, at: node, in: context) { shared.add(settings) }
            }
        }
        var own = SharedSettings()
        own.variables = entries[Key.variables].map { SettingsParser.variables($0.value, in: context) } ?? []
        own.baseURL = entries[Key.baseURL].flatMap { context.template($0.value, for: "baseURL") }
        own.openapi = entries[Key.openapi].flatMap { OpenAPISettingParser.parse($0, in: context) }
        if let entry = entries[Key.defaults] {
            own.defaults = SettingsParser.defaults(entry.value, in: context)
            own.setsFollowRedirects =
                context.plainValue(forKey: SettingsParser.DefaultsKey.followRedirects.rawValue, in: entry.value) != nil
        }
        shared.add(own)
        let variables = shared.variables
        let baseURL = shared.baseURL
        let defaults = shared.defaults ?? RequestDefaults()
        let ownSetup = entries[Key.setup].map {
            StepParser.steps($0.value, owner: "setup", hasBaseURL: baseURL != nil, in: context)
        }
        let setup = shared.setup + (ownSetup ?? [])
        var tests: [TestCase] = []
        let declaresTests = entries[Key.tests] != nil
        // Which kinds of steps the tests may hold: the suite-wide checks below skip scanning them for a kind none has.
        var testStepKinds = TestParser.StepKinds()
        if let entry = entries[Key.tests] {
            tests = TestParser.tests(
                entry.value, hasBaseURL: baseURL != nil, in: context, stepKinds: &testStepKinds)
        } else {
            context.error("the suite has no 'tests'; add a list of tests", at: context.location(of: root))
        }

        let ownTeardown = entries[Key.teardown].map {
            StepParser.steps($0.value, owner: "teardown", hasBaseURL: baseURL != nil, in: context)
        }
        let teardown = (ownTeardown ?? []) + shared.teardown
        var suite = Suite(
            file: file, directory: directory, name: name, baseURL: baseURL, variables: variables,
            defaults: defaults, tests: tests, overrides: context.overrides)
        suite.setup = setup
        suite.teardown = teardown
        suite.security = entries[Key.security].flatMap { SecurityParser.parse($0, in: context) } ?? shared.security
        suite.openapi = shared.openapi ?? context.shared.defaultOpenAPI
        if let entry = entries[Key.response] {
            suite.responseDecoding = ResponseDecodingParser.parse(entry.value, in: context)
        }
        if let entry = entries[Key.load] { suite.loadThresholds = loadThresholds(entry.value, in: context) }
        for reserved in ["setup", "teardown"] {
            if !(reserved == "setup" ? suite.setup : suite.teardown).isEmpty,
                let test = tests.first(where: { $0.name == reserved })
            {
                context.error(
                    "a test cannot be named '\(reserved)' in a suite with \(reserved) steps", at: test.location)
            }
        }
        if let entry = entries[Key.grpc] { suite.grpc = GRPCParser.setting(entry, in: context) }
        GRPCSchemaCheck.check(&suite, in: context, testsMayCallGRPC: testStepKinds.grpcCalls)
        SnapshotParser.checkUnique(suite, in: context, testsMayHaveSnapshots: testStepKinds.snapshots)
        let usedEnvironment = ScopeChecker.check(suite, in: context)
        guard !context.hasErrors else { return (nil, declaresTests) }
        suite.environment = context.environment.filter { usedEnvironment.contains($0.key) }
        suite.warnings = context.diagnostics.filter { $0.severity == .warning }
        return (suite, declaresTests)
    }

    /// `load: {thresholds: [p95<20ms, errors<0.1%]}`: the thresholds `apitest load` holds the suite's tests to.
    static func loadThresholds(_ node: YAMLNode, in context: SuiteParseContext) -> [LoadThreshold] {
        guard let entries = context.mapping(node, for: "load") else { return [] }
        context.checkKeys(entries, of: LoadKey.self, in: "load")
        guard let entry = entries[LoadKey.thresholds], let items = context.sequence(entry.value, for: "thresholds")
        else { return [] }
        var thresholds: [LoadThreshold] = []
        for item in items {
            guard let text = context.text(item, for: "a threshold") else { continue }
            do {
                thresholds.append(try LoadThreshold(parsing: text))
            } catch {
                context.error(error.description, at: item)
            }
        }
        return thresholds
    }

    /// The file name without its directory and extension.
    static func defaultName(forFile file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}

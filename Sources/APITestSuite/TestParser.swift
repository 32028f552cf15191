import APITestSupport
import APITestYAML

/// `tests:`: each test a name, tags, `skip`, `forEach`, and either one request (with its `expect`, `capture` and
/// `retry`) or `steps`.
enum TestParser {
    /// The keys of a test.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, tags, skip, when, forEach, request, expect, capture, retry, steps, load
        case retries

        var schema: SchemaValue {
            switch self {
            case .name:
                .described(
                    "The test's name, unique within the file (with forEach: may use the row's columns).",
                    ["type": SuiteSchema.scalarTypes, "minLength": 1])
            case .tags:
                .described(
                    "Labels: --tag selects tests by them, --exclude-tag leaves them out.",
                    ["type": "array", "items": .ref("text")])
            case .skip:
                .described("Do not run the test: a reason, or true (false runs it).", ["type": SuiteSchema.scalarTypes])
            case .when:
                .described(
                    "Run the test only when this holds, judged when it starts; otherwise it is skipped.",
                    ref: "condition")
            case .forEach, .request, .expect, .capture, .retry: .ref(rawValue)
            case .steps: .described("Several requests, run in order; captures flow to later steps.", ref: "steps")
            case .retries:
                .described(
                    "Run the whole test again, afresh, up to N times while it fails or errors (overrides --retries); "
                        + "a test that fails and then passes is reported flaky. Not a step's retry.",
                    ["type": "integer", "minimum": 0, "maximum": 100])
            case .load:
                .described(
                    "How `apitest load` treats the test.",
                    ["type": "object", "additionalProperties": false, "properties": LoadKey.properties])
            }
        }

        /// The definition of a test: a request (with its checks) or steps.
        static var definition: SchemaValue {
            .described(
                "A test: `request` (with optional `expect`, `capture`, `retry`), or `steps`.",
                [
                    "type": "object", "additionalProperties": false, "required": ["name"], "properties": properties,
                    "oneOf": [["required": ["request"]], ["required": ["steps"]]],
                    "if": ["required": ["steps"]],
                    "then": ["properties": ["expect": false, "capture": false, "retry": false]],
                ])
        }
    }

    /// The keys of a test's `load:`.
    enum LoadKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case weight

        var schema: SchemaValue {
            .described(
                "How often the load mode picks this test against the others (default 1; 0 never).",
                ["type": "integer", "minimum": 0, "maximum": 1000])
        }
    }

    /// The keys of a test, as written.
    static let keys = Key.names

    // MARK: - Tests

    /// The tests of `tests:`, `forEach` tests expanded to one per row; a duplicate name is reported and left out.
    static func tests(_ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext) -> [TestCase] {
        var stepKinds = StepKinds()
        return tests(node, hasBaseURL: hasBaseURL, in: context, stepKinds: &stepKinds)
    }

    /// The tests of `tests:` as `tests(_:hasBaseURL:in:)` gives them; `stepKinds` set to the kinds of steps they
    /// may hold (left as it is unless the list was parsed in parts, which looked at every test's steps).
    static func tests(
        _ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext, stepKinds: inout StepKinds
    ) -> [TestCase] {
        guard let items = context.sequence(node, for: "tests") else { return [] }
        if items.isEmpty {
            context.error("'tests' is empty; add at least one test", at: node)
            return []
        }
        // The node of each name's first test: its location is worked out only for a duplicate.
        var firstByName: [String: YAMLNode] = [:]
        firstByName.reserveCapacity(items.count)
        var tests: [TestCase] = []
        /// Whether the name of a test is new; a repeated one is reported.
        func isNew(_ name: String, nameNode: YAMLNode) -> Bool {
            // One lookup for a new name (the common case): a repeated one puts back the first name's node.
            guard let first = firstByName.updateValue(nameNode, forKey: name) else { return true }
            firstByName[name] = first
            context.error(
                "duplicate test name '\(name)'", at: nameNode, note: "first defined at \(context.location(of: first))")
            return false
        }
        func add(_ test: consuming TestCase, nameNode: YAMLNode) {
            if isNew(test.name, nameNode: nameNode) { tests.append(test) }
        }
        // A long list is parsed in parts on several cores first when it can be. Without `forEach` the parts' array
        // is the list's tests, less those whose name repeats an earlier one (reported in order, as below);
        // otherwise the tests are moved out of it here, in order, as they would come from
        // `test(_:number:hasBaseURL:in:)`.
        let parts = ParsedParts(items, hasBaseURL: hasBaseURL, in: context)
        // The tests kept are the parts' tests, or rows copied from them with the same steps, or fewer.
        if let parts { stepKinds = parts.stepKinds }
        if let parts, !parts.hasForEach {
            let parsed = parts.takeTests()
            // The tests kept, made only at the first repeated name (the list itself when none repeats).
            var kept: [TestCase]?
            for index in parsed.indices {
                if isNew(parsed[index].name, nameNode: parts.nameNodes[index]) {
                    kept?.append(parsed[index])
                } else if kept == nil {
                    kept = Array(parsed[..<index])
                }
            }
            return kept ?? parsed
        }
        tests.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard
                let (test, nameNode, hasForEach) = parts?.takeNext()
                    ?? test(item, number: index + 1, hasBaseURL: hasBaseURL, in: context)
            else {
                continue
            }
            if !hasForEach {
                add(test, nameNode: nameNode)
            } else {
                for row in ForEachParser.expand(test, item, in: context) { add(row, nameNode: nameNode) }
            }
        }
        return tests
    }

    /// The nodes of one key of a test and of its value.
    private struct Found {
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    /// The entries of a test's keys.
    private struct Entries {
        var name, tags, skip, when, forEach, request, expect, capture, retry, steps, load: Found?
        var retries: Found?
        /// Every entry of the map, when it has a key that is not a test's (see `init(_:in:)`); `nil` otherwise.
        var unknownKeyEntries: [MapEntry]?

        /// Each key's entry, found in one pass (a suite can have 100,000 tests); an unknown key is reported, as
        /// `checkKeys` reports it (each key is looked up once, not once to check it and again here). A map of known
        /// keys only is read without making its keys' texts (`forEachKnownEntry`).
        init(_ node: YAMLNode, entries: (() -> [MapEntry]), in context: SuiteParseContext) {
            var found = Entries()
            if context.forEachKnownEntry(
                of: node, Key.self, { found.set($0.key, Found(keyNode: $0.keyNode, value: $0.value)) })
            {
                self = found
                return
            }
            let all = entries()
            for entry in all {
                if let key = Key(named: entry.key) {
                    found.set(key, Found(keyNode: entry.keyNode, value: entry.value))
                } else {
                    context.checkKeys([entry], of: Key.self, in: "test")
                    found.unknownKeyEntries = all
                }
            }
            self = found
        }

        private init() {}

        /// Records the entry of `key`.
        private mutating func set(_ key: Key, _ entry: Found) {
            switch key {
            case .name: name = entry
            case .tags: tags = entry
            case .skip: skip = entry
            case .when: when = entry
            case .forEach: forEach = entry
            case .request: request = entry
            case .expect: expect = entry
            case .capture: capture = entry
            case .retry: retry = entry
            case .steps: steps = entry
            case .load: load = entry
            case .retries: retries = entry
            }
        }
    }

    /// A test, the node of its name, and whether it has `forEach`.
    static func test(
        _ node: YAMLNode, number: Int, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> (TestCase, YAMLNode, hasForEach: Bool)? {
        guard context.isMapping(node) else {
            context.error("expected a map for each test, found \(context.kindName(of: node))", at: node)
            return nil
        }
        // `mapping(_:for:)` of a map reports its list and map keys and returns its entries (never `nil`).
        let entries = Entries(node, entries: { context.mapping(node, for: "test") ?? [] }, in: context)
        guard let nameEntry = entries.name else {
            context.error("test #\(number) needs a 'name'", at: context.location(of: node))
            return nil
        }
        guard let name = context.text(nameEntry.value, for: "name") else { return nil }
        if name.isEmpty { context.error("a test name cannot be empty", at: nameEntry.value) }
        let tags = entries.tags.map { Self.tags($0.value, in: context) } ?? []
        let skip = entries.skip.flatMap { Self.skip($0.value, in: context) }

        var steps: [Step] = []
        if let stepsEntry = entries.steps {
            if let request = entries.request {
                context.error("test '\(name)' has both 'request' and 'steps'; use one of them", at: request.keyNode)
            }
            for (key, entry) in [(Key.expect, entries.expect), (.capture, entries.capture), (.retry, entries.retry)] {
                guard let entry else { continue }
                context.error(
                    "'\(key.rawValue)' belongs inside each step when test '\(name)' has 'steps'", at: entry.keyNode)
            }
            steps = StepParser.steps(stepsEntry.value, owner: "test '\(name)'", hasBaseURL: hasBaseURL, in: context)
        } else if let request = entries.request {
            if let step = StepParser.step(
                at: context.location(of: node), request: request.value, expect: entries.expect?.value,
                capture: entries.capture?.value, retry: entries.retry?.value, hasBaseURL: hasBaseURL, in: context)
            {
                steps = [step]
            }
        } else {
            // A misspelled 'request' or 'steps' was already reported with a suggestion.
            let misspelled = (entries.unknownKeyEntries ?? []).contains { entry in
                !keys.contains(entry.key)
                    && ["request", "steps"].contains(Suggestion.closest(to: entry.key, in: keys) ?? "")
            }
            if !misspelled {
                context.error("test '\(name)' needs 'request' or 'steps'", at: context.location(of: node))
            }
            // Still check what is there, so that one pass reports every error.
            _ = entries.expect.map { ExpectParser.parse($0.value, in: context) }
            _ = entries.capture.map { CaptureParser.captures($0.value, in: context) }
        }
        var test = TestCase(name: name, tags: tags, location: context.location(of: node), steps: steps)
        test.skip = skip
        test.when = entries.when.flatMap { ConditionParser.condition($0.value, in: context) }
        if let load = entries.load, let weight = Self.loadWeight(load.value, in: context) { test.loadWeight = weight }
        test.retries = entries.retries.flatMap {
            context.integer($0.value, for: "retries", in: 0...TestCase.maxRetries)
        }
        return (test, nameEntry.value, entries.forEach != nil)
    }

    /// `load: {weight: N}`: how often `apitest load` picks the test against the others (0 to 1000; 0 never).
    private static func loadWeight(_ node: YAMLNode, in context: SuiteParseContext) -> Int? {
        guard let entries = context.mapping(node, for: "load") else { return nil }
        context.checkKeys(entries, of: LoadKey.self, in: "load")
        guard let weight = entries[LoadKey.weight] else { return nil }
        return context.integer(weight.value, for: "weight", in: 0...1000)
    }

    /// `skip: reason` or `skip: true` (reason "skipped"); `skip: false` runs the test.
    private static func skip(_ node: YAMLNode, in context: SuiteParseContext) -> String? {
        if let scalar = context.scalar(node), scalar.style == .plain || scalar.style == .any {
            switch scalar.string {
            case "true", "True", "TRUE": return "skipped"
            case "false", "False", "FALSE": return nil
            default: break
            }
        }
        guard let reason = context.text(node, for: "skip") else { return nil }
        if reason.isEmpty { return "skipped" }
        return reason
    }

    /// The tags of `tags:`.
    private static func tags(_ node: YAMLNode, in context: SuiteParseContext) -> [String] {
        guard let items = context.sequence(node, for: "tags") else { return [] }
        return items.compactMap { context.text($0, for: "tags") }
    }
}

import APITestSupport

/// `tests:`: each test a name, tags, `skip`, `forEach`, and either one request (with its `expect`, `capture` and
/// `retry`) or `steps`.
enum TestParser {
    /// The keys of a test.
    static let keys = ["name", "tags", "skip", "forEach", "request", "expect", "capture", "retry", "steps"]

    // MARK: - Tests

    /// The tests of `tests:`, `forEach` tests expanded to one per row; a duplicate name is reported and left out.
    static func tests(_ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext) -> [TestCase] {
        guard let items = context.sequence(node, for: "tests") else { return [] }
        if items.isEmpty {
            context.error("'tests' is empty; add at least one test", at: node)
            return []
        }
        // The node of each name's first test: its location is worked out only for a duplicate.
        var firstByName: [String: YAMLNode] = [:]
        firstByName.reserveCapacity(items.count)
        var tests: [TestCase] = []
        tests.reserveCapacity(items.count)
        func add(_ test: TestCase, nameNode: YAMLNode) {
            if let first = firstByName[test.name] {
                context.error(
                    "duplicate test name '\(test.name)'", at: nameNode,
                    note: "first defined at \(context.location(of: first))")
                return
            }
            firstByName[test.name] = nameNode
            tests.append(test)
        }
        for (index, item) in items.enumerated() {
            guard let (test, nameNode) = test(item, number: index + 1, hasBaseURL: hasBaseURL, in: context) else {
                continue
            }
            if context.plainValue(forKey: "forEach", in: item) == nil {
                add(test, nameNode: nameNode)
            } else {
                for row in ForEachParser.expand(test, item, in: context) { add(row, nameNode: nameNode) }
            }
        }
        return tests
    }

    /// A test and the node of its name.
    private static func test(
        _ node: YAMLNode, number: Int, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> (TestCase, YAMLNode)? {
        guard context.isMapping(node), let entries = context.mapping(node, for: "test") else {
            context.error("expected a map for each test, found \(context.kindName(of: node))", at: node)
            return nil
        }
        context.checkKeys(entries, allowed: keys, in: "test")
        guard let nameEntry = entries[key: "name"] else {
            context.error("test #\(number) needs a 'name'", at: context.location(of: node))
            return nil
        }
        guard let name = context.text(nameEntry.value, for: "name") else { return nil }
        if name.isEmpty { context.error("a test name cannot be empty", at: nameEntry.value) }
        let tags = entries[key: "tags"].map { Self.tags($0.value, in: context) } ?? []
        let skip = entries[key: "skip"].flatMap { Self.skip($0.value, in: context) }

        var steps: [Step] = []
        if let stepsEntry = entries[key: "steps"] {
            if let request = entries[key: "request"] {
                context.error("test '\(name)' has both 'request' and 'steps'; use one of them", at: request.keyNode)
            }
            for key in ["expect", "capture", "retry"] {
                guard let entry = entries[key: key] else { continue }
                context.error("'\(key)' belongs inside each step when test '\(name)' has 'steps'", at: entry.keyNode)
            }
            steps = StepParser.steps(stepsEntry.value, owner: "test '\(name)'", hasBaseURL: hasBaseURL, in: context)
        } else if let request = entries[key: "request"] {
            if let step = StepParser.step(
                at: context.location(of: node), request: request.value, expect: entries[key: "expect"]?.value,
                capture: entries[key: "capture"]?.value, retry: entries[key: "retry"]?.value, hasBaseURL: hasBaseURL,
                in: context)
            {
                steps = [step]
            }
        } else {
            // A misspelled 'request' or 'steps' was already reported with a suggestion.
            let misspelled = entries.contains { entry in
                !keys.contains(entry.key)
                    && ["request", "steps"].contains(Suggestion.closest(to: entry.key, in: keys) ?? "")
            }
            if !misspelled {
                context.error("test '\(name)' needs 'request' or 'steps'", at: context.location(of: node))
            }
            // Still check what is there, so that one pass reports every error.
            _ = entries[key: "expect"].map { ExpectParser.parse($0.value, in: context) }
            _ = entries[key: "capture"].map { CaptureParser.captures($0.value, in: context) }
        }
        var test = TestCase(name: name, tags: tags, location: context.location(of: node), steps: steps)
        test.skip = skip
        return (test, nameEntry.value)
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

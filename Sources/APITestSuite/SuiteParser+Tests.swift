import APITestSupport

extension SuiteParser {
    static let testKeys = ["name", "tags", "skip", "forEach", "request", "expect", "capture", "retry", "steps"]
    static let stepKeys = ["request", "expect", "capture", "retry", "include"]
    static let captureKeys = ["query"] + Query.argumentKeys + ["attribute", "group", "filters"]

    // MARK: - Tests

    func parseTests(_ node: YAMLNode, hasBaseURL: Bool) -> [TestCase] {
        guard let items = sequence(node, for: "tests") else { return [] }
        if items.isEmpty {
            error("'tests' is empty; add at least one test", at: node)
            return []
        }
        var firstByName: [String: SourceLocation] = [:]
        firstByName.reserveCapacity(items.count)
        var tests: [TestCase] = []
        tests.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let (test, nameNode) = parseTest(item, number: index + 1, hasBaseURL: hasBaseURL) else { continue }
            for test in expandForEach(test, item) {
                if let first = firstByName[test.name] {
                    error("duplicate test name '\(test.name)'", at: nameNode, note: "first defined at \(first)")
                    continue
                }
                firstByName[test.name] = location(of: nameNode)
                tests.append(test)
            }
        }
        return tests
    }

    /// A test and the node of its name.
    private func parseTest(_ node: YAMLNode, number: Int, hasBaseURL: Bool) -> (TestCase, YAMLNode)? {
        guard isMapping(node), let entries = mapping(node, for: "test") else {
            error("expected a map for each test, found \(kindName(of: node))", at: node)
            return nil
        }
        checkKeys(entries, allowed: Self.testKeys, in: "test")
        guard let nameEntry = entries[key: "name"] else {
            error("test #\(number) needs a 'name'", at: location(of: node))
            return nil
        }
        guard let name = text(nameEntry.value, for: "name") else { return nil }
        if name.isEmpty { error("a test name cannot be empty", at: nameEntry.value) }
        let tags = entries[key: "tags"].map { parseTags($0.value) } ?? []
        let skip = entries[key: "skip"].flatMap { parseSkip($0.value) }

        var steps: [Step] = []
        if let stepsEntry = entries[key: "steps"] {
            if let request = entries[key: "request"] {
                error("test '\(name)' has both 'request' and 'steps'; use one of them", at: request.keyNode)
            }
            for key in ["expect", "capture", "retry"] {
                guard let entry = entries[key: key] else { continue }
                error("'\(key)' belongs inside each step when test '\(name)' has 'steps'", at: entry.keyNode)
            }
            steps = parseSteps(stepsEntry.value, owner: "test '\(name)'", hasBaseURL: hasBaseURL)
        } else if let request = entries[key: "request"] {
            if let step = parseStep(
                at: location(of: node), request: request.value, expect: entries[key: "expect"]?.value,
                capture: entries[key: "capture"]?.value, retry: entries[key: "retry"]?.value, hasBaseURL: hasBaseURL)
            {
                steps = [step]
            }
        } else {
            // A misspelled 'request' or 'steps' was already reported with a suggestion.
            let misspelled = entries.contains { entry in
                !Self.testKeys.contains(entry.key)
                    && ["request", "steps"].contains(Suggestion.closest(to: entry.key, in: Self.testKeys) ?? "")
            }
            if !misspelled { error("test '\(name)' needs 'request' or 'steps'", at: location(of: node)) }
            // Still check what is there, so that one pass reports every error.
            _ = entries[key: "expect"].map { parseExpect($0.value) }
            _ = entries[key: "capture"].map { parseCaptures($0.value) }
        }
        var test = TestCase(name: name, tags: tags, location: location(of: node), steps: steps)
        test.skip = skip
        return (test, nameEntry.value)
    }

    /// `skip: reason` or `skip: true` (reason "skipped"); `skip: false` runs the test.
    private func parseSkip(_ node: YAMLNode) -> String? {
        if let scalar = scalar(node), scalar.style == .plain || scalar.style == .any {
            switch scalar.string {
            case "true", "True", "TRUE": return "skipped"
            case "false", "False", "FALSE": return nil
            default: break
            }
        }
        guard let reason = text(node, for: "skip") else { return nil }
        if reason.isEmpty { return "skipped" }
        return reason
    }

    private func parseTags(_ node: YAMLNode) -> [String] {
        guard let items = sequence(node, for: "tags") else { return [] }
        return items.compactMap { text($0, for: "tags") }
    }

    // MARK: - Steps

    /// The steps of a test (`owner` is "test 'name'"), of `setup` or of `teardown`.
    func parseSteps(_ node: YAMLNode, owner: String, hasBaseURL: Bool) -> [Step] {
        let isHook = owner == "setup" || owner == "teardown"
        guard let items = sequence(node, for: isHook ? owner : "steps") else { return [] }
        if items.isEmpty {
            error(
                isHook
                    ? "'\(owner)' is empty; add at least one step"
                    : "'steps' of \(owner) is empty; add at least one step", at: node)
            return []
        }
        var steps: [Step] = []
        for (index, item) in items.enumerated() {
            guard isMapping(item), let entries = mapping(item, for: "step") else {
                error("expected a map for each step, found \(kindName(of: item))", at: item)
                continue
            }
            if let include = entries[key: "include"] {
                checkKeys(entries, allowed: ["include"], in: "a step that includes steps")
                guard let path = text(include.value, for: "include") else { continue }
                steps += includeSteps(path, at: include.value, owner: owner, hasBaseURL: hasBaseURL)
                continue
            }
            checkKeys(entries, allowed: Self.stepKeys, in: "step")
            guard let request = entries[key: "request"] else {
                error("step \(index + 1) of \(owner) needs a 'request'", at: location(of: item))
                continue
            }
            if let step = parseStep(
                at: location(of: item), request: request.value, expect: entries[key: "expect"]?.value,
                capture: entries[key: "capture"]?.value, retry: entries[key: "retry"]?.value, hasBaseURL: hasBaseURL)
            {
                steps.append(step)
            }
        }
        return steps
    }

    private func parseStep(
        at location: SourceLocation, request: YAMLNode, expect: YAMLNode?, capture: YAMLNode?, retry: YAMLNode?,
        hasBaseURL: Bool
    ) -> Step? {
        let requestSpec = parseRequest(request, hasBaseURL: hasBaseURL)
        let expectations = expect.map(parseExpect) ?? Expectations()
        let captures = capture.map(parseCaptures) ?? []
        let retrySpec = retry.flatMap(parseRetry)
        guard let requestSpec else { return nil }
        return Step(
            location: location, request: requestSpec, expect: expectations, captures: captures, retry: retrySpec)
    }

    // MARK: - Captures

    private func parseCaptures(_ node: YAMLNode) -> [CaptureSpec] {
        guard let entries = mapping(node, for: "capture") else { return [] }
        var captures: [CaptureSpec] = []
        for entry in entries {
            guard checkVariableName(entry.key, at: entry.keyNode, what: "capture") else { continue }
            guard isMapping(entry.value), let source = mapping(entry.value, for: entry.key) else {
                error(
                    "expected a map for capture '\(entry.key)', found \(kindName(of: entry.value))", at: entry.value,
                    note: "write {jsonpath: $.path}, {header: Name} or another query, with optional filters")
                continue
            }
            guard let (query, used) = parseQuery(source, at: entry.value, for: "capture '\(entry.key)'") else {
                continue
            }
            var filters: [Filter] = []
            var valid = true
            for item in source where !used.contains(item.key) {
                if item.key == "filters" {
                    if let parsed = parseFilters(item.value) { filters = parsed } else { valid = false }
                } else if Predicate(rawValue: item.key) != nil {
                    error(
                        "a capture takes no predicate ('\(item.key)'); check the value in `expect`", at: item.keyNode)
                    valid = false
                } else {
                    error(
                        "unknown key '\(item.key)' in capture '\(entry.key)'"
                            + Suggestion.didYouMean(item.key, in: Self.captureKeys),
                        at: item.keyNode)
                    valid = false
                }
            }
            guard valid else { continue }
            captures.append(
                CaptureSpec(name: entry.key, query: query, filters: filters, location: location(of: entry.keyNode)))
        }
        return captures
    }
}

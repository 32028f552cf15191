import APITestSupport

/// The steps of a test, of `setup` and of `teardown`: each a request with optional `expect`, `capture` and `retry`,
/// or an `include` of a steps file.
enum StepParser {
    /// The keys of a step.
    static let keys = ["name", "request", "expect", "capture", "retry", "when", "forEach", "steps", "include"]

    /// The keys of a group of steps.
    static let groupKeys = ["name", "when", "forEach", "steps"]

    // MARK: - Steps

    /// The steps of a test (`owner` is "test 'name'"), of `setup` or of `teardown`.
    static func steps(
        _ node: YAMLNode, owner: String, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> [Step] {
        let isHook = owner == "setup" || owner == "teardown"
        guard let items = context.sequence(node, for: isHook ? owner : "steps") else { return [] }
        if items.isEmpty {
            context.error(
                isHook
                    ? "'\(owner)' is empty; add at least one step"
                    : "'steps' of \(owner) is empty; add at least one step", at: node)
            return []
        }
        var steps: [Step] = []
        for (index, item) in items.enumerated() {
            // Step includes can repeat a file (a file that includes the next one twice, twenty times over, is a
            // million steps): every step, group and include counts against one budget for the suite.
            context.shared.stepCount += 1
            guard context.shared.stepCount <= LoadBudget.maximumSteps else {
                if context.shared.stepCount == LoadBudget.maximumSteps + 1 {
                    context.error(
                        "the suite has too many steps (over \(LoadBudget.maximumSteps) once includes are expanded)",
                        at: item)
                }
                break
            }
            guard context.isMapping(item), let entries = context.mapping(item, for: "step") else {
                context.error("expected a map for each step, found \(context.kindName(of: item))", at: item)
                continue
            }
            if let include = entries[key: "include"] {
                context.checkKeys(entries, allowed: ["include"], in: "a step that includes steps")
                guard let path = context.text(include.value, for: "include") else { continue }
                steps += IncludeParser.steps(
                    path, at: include.value, owner: owner, hasBaseURL: hasBaseURL, in: context)
                continue
            }
            if let group = entries[key: "steps"] {
                steps += Self.group(entries, steps: group, at: item, owner: owner, hasBaseURL: hasBaseURL, in: context)
                continue
            }
            context.checkKeys(entries, allowed: keys, in: "step")
            guard let request = entries[key: "request"] else {
                context.error("step \(index + 1) of \(owner) needs a 'request'", at: context.location(of: item))
                continue
            }
            let control = Self.control(entries, in: context)
            if var step = Self.step(
                at: context.location(of: item), request: request.value, expect: entries[key: "expect"]?.value,
                capture: entries[key: "capture"]?.value, retry: entries[key: "retry"]?.value, hasBaseURL: hasBaseURL,
                in: context)
            {
                step.control = control
                steps.append(step)
            }
        }
        return steps
    }

    /// A group of steps, `{name, when, forEach, steps}`: its steps, the first holding the group.
    private static func group(
        _ entries: [MapEntry], steps node: MapEntry, at item: YAMLNode, owner: String, hasBaseURL: Bool,
        in context: SuiteParseContext
    ) -> [Step] {
        context.checkKeys(entries, allowed: groupKeys, in: "a group of steps")
        var steps = Self.steps(node.value, owner: owner, hasBaseURL: hasBaseURL, in: context)
        if steps.contains(where: { $0.control?.group != nil }) {
            context.error(
                "groups of steps do not nest; give the inner group's steps to the outer one", at: node.keyNode)
            return []
        }
        let control = Self.control(entries, in: context)
        guard !steps.isEmpty else { return [] }
        var first = steps[0].control ?? StepControl()
        first.group = StepGroup(
            name: control?.name, when: control?.when, loop: control?.loop, count: steps.count,
            location: context.location(of: item))
        steps[0].control = first
        return steps
    }

    /// A step's `name`, `when` and `forEach`; nil when it has none of them.
    static func control(_ entries: [MapEntry], in context: SuiteParseContext) -> StepControl? {
        var control = StepControl()
        if let entry = entries[key: "name"], let name = context.text(entry.value, for: "name") {
            if name.isEmpty { context.error("a step name cannot be empty", at: entry.value) }
            control.name = name
        }
        control.when = entries[key: "when"].flatMap { ConditionParser.condition($0.value, in: context) }
        control.loop = entries[key: "forEach"].flatMap { ConditionParser.loop($0.value, in: context) }
        return control == StepControl() ? nil : control
    }

    /// One step from the nodes of its `request`, `expect`, `capture` and `retry` (a test's own, or a step's);
    /// `nil` without a usable request. The other parts are read either way, so that their errors are reported.
    static func step(
        at location: SourceLocation, request: YAMLNode, expect: YAMLNode?, capture: YAMLNode?, retry: YAMLNode?,
        hasBaseURL: Bool, in context: SuiteParseContext
    ) -> Step? {
        let requestSpec = RequestParser.parse(request, hasBaseURL: hasBaseURL, in: context)
        let expectations = expect.map { ExpectParser.parse($0, in: context) } ?? Expectations()
        let captures = capture.map { CaptureParser.captures($0, in: context) } ?? []
        let retrySpec = retry.flatMap { RetryParser.parse($0, in: context) }
        guard let requestSpec else { return nil }
        return Step(
            location: location, request: requestSpec, expect: expectations, captures: captures, retry: retrySpec)
    }
}

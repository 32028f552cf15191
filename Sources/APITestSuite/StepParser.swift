import APITestSupport
import APITestYAML

/// The steps of a test, of `setup` and of `teardown`: each a request with optional `expect`, `capture` and `retry`,
/// or an `include` of a steps file.
enum StepParser {
    /// The keys of a step (`steps` makes it a group, `include` an include).
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, request, expect, capture, retry, when, forEach, steps, include
        case websocket
        case grpc

        var schema: SchemaValue {
            switch self {
            case .name:
                .described(
                    "What reports call the step instead of 'step N'.",
                    ["type": SuiteSchema.scalarTypes, "minLength": 1])
            case .request, .expect, .capture, .retry: .ref(rawValue)
            case .when:
                .described(
                    "Send the step only when this holds; otherwise it is reported as skipped.", ref: "condition")
            case .forEach: .ref("stepLoop")
            case .steps: GroupKey.steps.schema
            case .include: IncludeKey.include.schema
            case .websocket: .ref("websocket")
            case .grpc: .ref("grpc")
            }
        }

        /// The definition of a step: a request step, an include, or a group.
        static var definition: SchemaValue {
            let requestStep = SchemaValue.members(
                allCases.filter { ![.steps, .include, .websocket, .grpc].contains($0) }.map { ($0.rawValue, $0.schema) }
            )
            return .described(
                "One request of a test, setup or teardown, or `{include: steps.yaml}`: the steps of a shared file (a "
                    + "list of steps, or a map with `steps`), relative to this file.",
                [
                    "anyOf": [
                        [
                            "type": "object", "additionalProperties": false, "required": ["request"],
                            "properties": requestStep,
                        ],
                        [
                            "type": "object", "additionalProperties": false, "required": ["include"],
                            "properties": IncludeKey.properties,
                        ],
                        [
                            "type": "object", "additionalProperties": false, "required": ["steps"],
                            "description": .string(
                                "A group of steps: its name, when and forEach apply to its steps together (groups "
                                    + "do not nest)."),
                            "properties": GroupKey.properties,
                        ],
                        WebSocketParser.stepDefinition,
                        GRPCParser.stepDefinition,
                    ]
                ])
        }
    }

    /// The keys of a group of steps.
    enum GroupKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, when, forEach, steps

        var schema: SchemaValue {
            switch self {
            case .name:
                .described("What reports call the group.", ["type": SuiteSchema.scalarTypes, "minLength": 1])
            case .when:
                .described(
                    "Run the group only when this holds; otherwise it is reported as skipped.", ref: "condition")
            case .forEach: .ref("stepLoop")
            case .steps: .described("The group's steps.", ref: "steps")
            }
        }
    }

    /// The key of a step that includes steps.
    enum IncludeKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case include

        var schema: SchemaValue { .described("A file of shared steps, relative to this file.", ref: "filePath") }
    }

    /// The keys of a step, as written.
    static let keys = Key.names
    /// The keys of a group of steps, as written.
    static let groupKeys = GroupKey.names

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
            if let include = entries[Key.include] {
                context.checkKeys(entries, of: IncludeKey.self, in: "a step that includes steps")
                guard let path = context.text(include.value, for: "include") else { continue }
                steps += IncludeParser.steps(
                    path, at: include.value, owner: owner, hasBaseURL: hasBaseURL, in: context)
                continue
            }
            if let group = entries[Key.steps] {
                steps += Self.group(entries, steps: group, at: item, owner: owner, hasBaseURL: hasBaseURL, in: context)
                continue
            }
            if let websocket = entries[Key.websocket] {
                if var step = WebSocketParser.step(
                    entries, websocket: websocket, at: item, hasBaseURL: hasBaseURL, in: context)
                {
                    step.control = Self.control(entries, in: context)
                    steps.append(step)
                }
                continue
            }
            if let grpc = entries[Key.grpc] {
                if var step = GRPCParser.step(entries, grpc: grpc, at: item, hasBaseURL: hasBaseURL, in: context) {
                    step.control = Self.control(entries, in: context)
                    steps.append(step)
                }
                continue
            }
            context.checkKeys(entries, of: Key.self, in: "step")
            guard let request = entries[Key.request] else {
                context.error("step \(index + 1) of \(owner) needs a 'request'", at: context.location(of: item))
                continue
            }
            let control = Self.control(entries, in: context)
            if var step = Self.step(
                at: context.location(of: item), request: request.value, expect: entries[Key.expect]?.value,
                capture: entries[Key.capture]?.value, retry: entries[Key.retry]?.value, hasBaseURL: hasBaseURL,
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
        context.checkKeys(entries, of: GroupKey.self, in: "a group of steps")
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
        if let entry = entries[GroupKey.name], let name = context.text(entry.value, for: "name") {
            if name.isEmpty { context.error("a step name cannot be empty", at: entry.value) }
            control.name = name
        }
        control.when = entries[GroupKey.when].flatMap { ConditionParser.condition($0.value, in: context) }
        control.loop = entries[GroupKey.forEach].flatMap { ConditionParser.loop($0.value, in: context) }
        return control == StepControl() ? nil : control
    }

    /// One step from the nodes of its `request`, `expect`, `capture` and `retry` (a test's own, or a step's);
    /// `nil` without a usable request. The other parts are read either way, so that their errors are reported.
    static func step(
        at location: SourceLocation, request: YAMLNode, expect: YAMLNode?, capture: YAMLNode?, retry: YAMLNode?,
        hasBaseURL: Bool, in context: SuiteParseContext
    ) -> Step? {
        let placeholdersBefore = context.shared.placeholderTemplateCount
        let parsedRequest = RequestParser.parse(request, hasBaseURL: hasBaseURL, in: context)
        // Not `expect.map { … } ?? Expectations()`: `??` copied the parsed value out of its optional.
        let expectations: Expectations
        if let expect { expectations = ExpectParser.parse(expect, in: context) } else { expectations = Expectations() }
        let captures: [CaptureSpec]
        if let capture { captures = CaptureParser.captures(capture, in: context) } else { captures = [] }
        let retrySpec = retry.flatMap { RetryParser.parse($0, in: context) }
        // Moved, not copied, into the step: a copy of a request retains and releases each of its dozen fields.
        guard let requestSpec = consume parsedRequest else { return nil }
        checkExpectConflicts(expectations, requestIsGraphQL: requestSpec.isGraphQL, in: context)
        if let grpc = expectations.grpc {
            context.error("'expect.grpc' checks a gRPC call; this step is an HTTP request", at: grpc.location)
        }
        var step = Step(
            location: location, request: requestSpec, expect: expectations, captures: captures, retry: retrySpec)
        if context.shared.placeholderTemplateCount == placeholdersBefore { step.markOnlyLiteralTemplates() }
        return step
    }
}

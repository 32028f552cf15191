import APITestJSON
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport

// MARK: - when and forEach of a step

extension TestExecutor {
    /// The longest text of a `forEach` element shown in a step's label.
    static let labelValueLimit = 40

    /// Runs `step` as its `when` and `forEach` say: skipped when the condition is false, once for each element of
    /// its list (each iteration a named result whose captures stay in it), or once. An unnamed step's iterations
    /// are labelled `unnamed` (`step N` of a group's step N), else `step N` by its place in the test.
    func runControlled(
        _ step: Step, index: Int, unnamed: String? = nil, testName: String, runtime: SuiteRuntime,
        context: inout TemplateContext
    ) async -> (results: [StepResult], status: TestStatus) {
        // Most steps have no name, condition or loop: told apart in place (matching an optional copies nothing out
        // of the step), and run from this small async frame; the others from `runWithControl`'s (a task keeps the
        // largest frames it had until it ends: see `run(_:index:testName:runtime:context:)`).
        guard case .some = step.control else {
            let (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            return ([result], status)
        }
        return await runWithControl(
            step, index: index, unnamed: unnamed, testName: testName, runtime: runtime, context: &context)
    }

    /// ``runControlled(_:index:unnamed:testName:runtime:context:)`` of a step with a name, a `when` or a `forEach`,
    /// in a frame of its own (never inlined into the plain step's).
    @inline(never)
    func runWithControl(
        _ step: Step, index: Int, unnamed: String?, testName: String, runtime: SuiteRuntime,
        context: inout TemplateContext
    ) async -> (results: [StepResult], status: TestStatus) {
        guard let control = step.control else {
            let (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            return ([result], status)
        }
        let name = control.name ?? unnamed ?? "step \(index + 1)"
        guard let loop = control.loop else {
            if let skipped = skipResult(
                step.when, index: index, location: step.location, label: control.name.map { MessageText($0) },
                runtime: runtime,
                context: context)
            {
                return ([skipped.result], skipped.status)
            }
            var (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            if let name = control.name { result.relabel(MessageText(name), sealedBy: runtime.masker) }
            return ([result], status)
        }
        let items: [JSONValue]
        switch loopItems(
            loop, index: index, location: step.location, label: MessageText(name), runtime: runtime, context)
        {
        case .list(let list): items = list
        case .done(let result, let status): return ([result], status)
        }
        return await forEachItem(
            items, of: loop, name: name, when: step.when, index: index, location: step.location, runtime: runtime,
            context: context
        ) { label, iteration in
            var (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &iteration)
            result.relabel(label, sealedBy: runtime.masker)
            return ([result], status)
        }
    }

    /// What a `forEach` runs over: its list, or the one result that ends it (an error, or `no items`).
    enum LoopItems {
        case list([JSONValue])
        case done(StepResult, TestStatus)
    }

    /// The list of `loop` in `context`: a list of at most `maxItems` elements, else an errored result; an empty
    /// one is a passing result skipped as `no items`.
    func loopItems(
        _ loop: StepLoop, index: Int, location: SourceLocation, label: MessageText, runtime: SuiteRuntime,
        _ context: TemplateContext
    ) -> LoopItems {
        let value: JSONValue
        do {
            value = try loop.items.renderValue(context)
        } catch {
            var draft = StepDraft(
                index: index, location: location, error: TestError(.template(error), location: loop.location))
            draft.label = label
            return .done(draft.sealed(by: runtime.masker), .errored)
        }
        guard case .array(let items) = value else {
            return .done(
                loopError(
                    index: index, label: label, loop: loop, runtime: runtime,
                    "forEach: '\(loop.items.source)' is not a list: \(ExpressionFunctionsText.quoted(value))"),
                .errored)
        }
        guard items.count <= loop.maxItems else {
            return .done(
                loopError(
                    index: index, label: label, loop: loop, runtime: runtime,
                    "forEach: '\(loop.items.source)' has \(items.count) items, more than maxItems \(loop.maxItems)"),
                .errored)
        }
        guard !items.isEmpty else {
            var draft = StepDraft(index: index, location: location)
            draft.label = "\(label) › no items"
            draft.skipped = "forEach: no items in '\(loop.items.source)'"
            return .done(draft.sealed(by: runtime.masker), .passed)
        }
        return .list(items)
    }

    /// The label of iteration `offset` of `count` with `item` bound to `variable` (masked when it is a secret),
    /// the item quoted: masked whole and then cut where the step's result is sealed.
    static func iterationLabel(
        _ name: String, offset: Int, count: Int, variable: String, item: JSONValue, secret: Bool
    ) -> MessageText {
        let shown =
            secret ? MessageText(SecretMasker.mask) : ExpressionFunctionsText.quoted(item, limit: labelValueLimit)
        return "\(name) › \(offset + 1)/\(count) (\(variable)=\(shown))"
    }

    /// Runs a group of steps (`members`, the first at `firstIndex` of the test): skipped whole when its `when` is
    /// false, else its steps in order, once for each element of its `forEach` (each iteration's captures stay in
    /// it) or once; every result labelled with the group's name, then its own name or, unnamed, `step N` by its
    /// place in the group (`item › 2/3 (id=7) › step 1`). Never inlined: a plain test's frames stay small.
    @inline(never)
    func runGroup(
        _ group: StepGroup, _ members: [Step], firstIndex: Int, testName: String, runtime: SuiteRuntime,
        context: inout TemplateContext
    ) async -> (results: [StepResult], status: TestStatus) {
        let name =
            group.name
            ?? (members.count == 1 ? "step \(firstIndex + 1)" : "steps \(firstIndex + 1)–\(firstIndex + members.count)")
        /// The members in order in `scope`, labelled under `label`.
        func runMembers(_ label: MessageText, _ scope: inout TemplateContext) async -> ([StepResult], TestStatus) {
            var results: [StepResult] = []
            for (offset, member) in members.enumerated() {
                let unnamed = "step \(offset + 1)"
                var (memberResults, status) = await runControlled(
                    member, index: firstIndex + offset, unnamed: unnamed, testName: testName, runtime: runtime,
                    context: &scope)
                for position in memberResults.indices {
                    let nested: MessageText = "\(label) › \(memberResults[position].label ?? unnamed)"
                    memberResults[position].relabel(nested, sealedBy: runtime.masker)
                }
                results += memberResults
                if status != .passed { return (results, status) }
            }
            return (results, .passed)
        }
        guard let loop = group.loop else {
            if let skipped = skipResult(
                group.when, index: firstIndex, location: group.location, label: MessageText(name), runtime: runtime,
                context: context)
            {
                return ([skipped.result], skipped.status)
            }
            return await runMembers(MessageText(name), &context)
        }
        let items: [JSONValue]
        switch loopItems(
            loop, index: firstIndex, location: group.location, label: MessageText(name), runtime: runtime, context)
        {
        case .list(let list): items = list
        case .done(let result, let status): return ([result], status)
        }
        return await forEachItem(
            items, of: loop, name: name, when: group.when, index: firstIndex, location: group.location,
            runtime: runtime, context: context
        ) { label, iteration in
            await runMembers(label, &iteration)
        }
    }

    /// The result of a step or group whose `when` is false (skipped) or cannot be judged (errored); nil to run it
    /// (no condition, or one that holds).
    private func skipResult(
        _ when: Condition?, index: Int, location: SourceLocation, label: MessageText?, runtime: SuiteRuntime,
        context: TemplateContext
    ) -> (result: StepResult, status: TestStatus)? {
        guard let when else { return nil }
        do {
            if try when.expression.holds(context, source: when.source, location: when.location) { return nil }
            var draft = StepDraft(index: index, location: location)
            draft.label = label
            draft.skipped = "when: false (\(when.source))"
            return (draft.sealed(by: runtime.masker), .passed)
        } catch {
            var draft = StepDraft(
                index: index, location: location, error: TestError(.template(error), location: when.location))
            draft.label = label
            return (draft.sealed(by: runtime.masker.adding(context.derivedSecretTexts)), .errored)
        }
    }

    /// Runs `body` once for each element of `items`, bound to the loop's variable in a copy of `context` (so each
    /// iteration's captures stay in it) and labelled `NAME › I/N (as=VALUE)`; an iteration whose `when` is false
    /// is a skipped result; the first iteration that does not pass ends the loop.
    private func forEachItem(
        _ items: [JSONValue], of loop: StepLoop, name: String, when: Condition?, index: Int, location: SourceLocation,
        runtime: SuiteRuntime, context: TemplateContext,
        _ body: (_ label: MessageText, _ iteration: inout TemplateContext) async -> ([StepResult], TestStatus)
    ) async -> (results: [StepResult], status: TestStatus) {
        let secret = context.usesSecret(loop.items)
        var results: [StepResult] = []
        for (offset, item) in items.enumerated() {
            var iteration = context
            iteration.set(loop.variable, item, secret: secret)
            let label = Self.iterationLabel(
                name, offset: offset, count: items.count, variable: loop.variable, item: item, secret: secret)
            if let skipped = skipResult(
                when, index: index, location: location, label: label, runtime: runtime, context: iteration)
            {
                results.append(skipped.result)
                if skipped.status != .passed { return (results, skipped.status) }
                continue
            }
            let (iterationResults, status) = await body(label, &iteration)
            results += iterationResults
            if status != .passed { return (results, status) }
        }
        return (results, .passed)
    }

    /// An errored result of a step's `forEach`.
    private func loopError(
        index: Int, label: MessageText, loop: StepLoop, runtime: SuiteRuntime, _ message: MessageText
    ) -> StepResult {
        let error = TemplateError(kind: .evaluation, text: message, location: loop.location)
        var draft = StepDraft(
            index: index, location: loop.location, error: TestError(.template(error), location: loop.location))
        draft.label = label
        return draft.sealed(by: runtime.masker)
    }
}

/// Values quoted in labels and messages.
enum ExpressionFunctionsText {
    /// `value` as text (strings raw, others JSON), quoted: masked whole and then cut to `limit` characters where
    /// the step's result is sealed.
    static func quoted(_ value: JSONValue, limit: Int = 80) -> MessageText {
        "\(quoting: TemplateContext.text(of: value), limit: limit)"
    }
}

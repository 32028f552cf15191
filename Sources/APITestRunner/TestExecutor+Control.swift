import APITestJSON
import APITestResults
import APITestSuite

// MARK: - when and forEach of a step

extension TestExecutor {
    /// The longest text of a `forEach` element shown in a step's label.
    static let labelValueLimit = 40

    /// Runs `step` as its `when` and `forEach` say: skipped when the condition is false, once for each element of
    /// its list (each iteration a named result whose captures stay in it), or once.
    func runControlled(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (results: [StepResult], status: TestStatus) {
        guard let control = step.control else {
            let (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            return ([result], status)
        }
        let name = control.name ?? "step \(index + 1)"
        guard let loop = control.loop else {
            if let skipped = skipResult(step, index: index, label: control.name, runtime: runtime, context: context) {
                return ([skipped.result], skipped.status)
            }
            var (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            result.label = control.name
            return ([result], status)
        }
        // The list, captured earlier.
        let items: [JSONValue]
        do {
            let value = try loop.items.renderValue(context)
            guard case .array(let list) = value else {
                return (
                    [
                        loopError(
                            index: index, label: name, loop: loop, runtime: runtime,
                            "forEach: '\(loop.items.source)' is not a list: \(ExpressionFunctionsText.short(value))")
                    ], .errored
                )
            }
            items = list
        } catch {
            let failure = TestError(.template(error), location: loop.location, masker: runtime.masker)
            var result = StepResult(index: index, location: step.location, exchange: nil, error: failure)
            result.label = name
            return ([result], .errored)
        }
        guard items.count <= loop.maxItems else {
            return (
                [
                    loopError(
                        index: index, label: name, loop: loop, runtime: runtime,
                        "forEach: '\(loop.items.source)' has \(items.count) items, more than maxItems \(loop.maxItems)")
                ], .errored
            )
        }
        guard !items.isEmpty else {
            var result = StepResult(index: index, location: step.location, exchange: nil)
            result.label = "\(name) › no items"
            result.skipped = "forEach: no items in '\(loop.items.source)'"
            return ([result], .passed)
        }
        let secret = context.usesSecret(loop.items)
        var results: [StepResult] = []
        for (offset, item) in items.enumerated() {
            // Each iteration sees the element and what came before; its captures stay in it.
            var iteration = context
            iteration.set(loop.variable, item, secret: secret)
            let shown =
                secret ? SecretMasker.mask : ExpressionFunctionsText.short(item, limit: Self.labelValueLimit)
            let label = "\(name) › \(offset + 1)/\(items.count) (\(loop.variable)=\(shown))"
            if let skipped = skipResult(step, index: index, label: label, runtime: runtime, context: iteration) {
                results.append(skipped.result)
                if skipped.status != .passed { return (results, skipped.status) }
                continue
            }
            var (result, status) = await run(
                step, index: index, testName: testName, runtime: runtime, context: &iteration)
            result.label = label
            results.append(result)
            if status != .passed { return (results, status) }
        }
        return (results, .passed)
    }

    /// The result of a step whose `when` is false (skipped) or cannot be judged (errored); nil to run it.
    private func skipResult(
        _ step: Step, index: Int, label: String?, runtime: SuiteRuntime, context: TemplateContext
    ) -> (result: StepResult, status: TestStatus)? {
        guard let when = step.when else { return nil }
        do {
            if try when.expression.holds(context, source: when.source, location: when.location) { return nil }
            var result = StepResult(index: index, location: step.location, exchange: nil)
            result.label = label
            result.skipped = "when: false (\(when.source))"
            return (result, .passed)
        } catch {
            let masker = runtime.masker.adding(context.derivedSecretTexts)
            var result = StepResult(
                index: index, location: step.location, exchange: nil,
                error: TestError(.template(error), location: when.location, masker: masker))
            result.label = label
            return (result, .errored)
        }
    }

    /// An errored result of a step's `forEach`.
    private func loopError(
        index: Int, label: String, loop: StepLoop, runtime: SuiteRuntime, _ message: String
    ) -> StepResult {
        let error = TemplateError(kind: .evaluation, message: message, location: loop.location)
        var result = StepResult(
            index: index, location: loop.location, exchange: nil,
            error: TestError(.template(error), location: loop.location, masker: runtime.masker))
        result.label = label
        return result
    }
}

/// Short texts of values for labels and messages.
enum ExpressionFunctionsText {
    /// `value` as text (strings raw, others JSON), cut to `limit` characters.
    static func short(_ value: JSONValue, limit: Int = 80) -> String {
        let text = TemplateContext.text(of: value)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}

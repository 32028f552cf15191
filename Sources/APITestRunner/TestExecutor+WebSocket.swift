import APITestResults
import APITestSuite

// MARK: - WebSocket steps

extension TestExecutor {
    /// Runs a `websocket:` step once (a conversation is not retried) and seals its draft.
    func runWebSocket(
        _ step: Step, spec: WebSocketSpec, index: Int, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (StepResult, TestStatus) {
        let outcome = await WebSocketStepRunner(executor: self, step: step, spec: spec, index: index, runtime: runtime)
            .run(context: context)
        context = outcome.context
        return (outcome.draft.sealed(by: outcome.sealer), outcome.status)
    }
}

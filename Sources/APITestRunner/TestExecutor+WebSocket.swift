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

    /// Runs a GraphQL subscription step once (a `graphql:` request on a `ws://` or `wss://` URL) and seals its draft.
    func runGraphQLSubscription(
        _ step: Step, index: Int, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (StepResult, TestStatus) {
        let outcome = await GraphQLSubscriptionRunner(executor: self, step: step, index: index, runtime: runtime)
            .run(context: context)
        context = outcome.context
        return (outcome.draft.sealed(by: outcome.sealer), outcome.status)
    }
}

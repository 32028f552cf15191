import APITestHTTP
import APITestJSON
package import APITestResults
import APITestSecrets
package import APITestSuite
import Foundation

/// `apitest export curl`: the requests of suites as curl commands, without sending anything.
///
/// Each step's request is built as a run would build it (`ReproduceBuilder` over `RequestBuilder`, the suite's
/// variables and environment, its security settings): `setup`, then each test, then `teardown`, steps in order.
/// A capture is not known before its response: where a later step uses one, the command holds `{{ name }}`.
package enum CurlExport {
    /// One step: its label (`suite › test › step N`) and its command, or why it has none.
    package struct Entry: Sendable, Hashable {
        /// `suite › test › step N`.
        package var label: String
        /// The command; `nil` when the request cannot be built.
        package var command: ReproduceCommand?
        /// Why there is no command (a template that does not render, a security block without a policy).
        package var problem: String?
    }

    /// The entries of every step of `suites`, in order, for a run with `options` (its TLS flags, timeouts and
    /// User-Agent).
    package static func entries(of suites: [Suite], options: RunOptions) -> [Entry] {
        let policies = SecurityPolicies(overrides: options.security)
        let reproducer = ReproduceBuilder(options: options)
        var entries: [Entry] = []
        for suite in suites {
            let runtime = SuiteRuntime(
                suite: suite, userAgent: options.userAgent, security: policies.policy(of: suite))
            if let error = runtime.setupError {
                entries.append(Entry(label: suite.name, command: nil, problem: error.message))
                continue
            }
            let setupCaptures = Set(suite.setup.flatMap { $0.captures.map(\.name) })
            entries += steps(
                suite.setup, label: "\(suite.name) › setup", runtime: runtime, bindings: [], captured: [],
                reproducer: reproducer)
            for test in suite.tests {
                if let reason = test.skip {
                    entries.append(
                        Entry(label: "\(suite.name) › \(test.name)", command: nil, problem: "skipped: \(reason)"))
                    continue
                }
                entries += steps(
                    test.steps, label: "\(suite.name) › \(test.name)", runtime: runtime, bindings: test.bindings,
                    captured: setupCaptures, reproducer: reproducer)
            }
            entries += steps(
                suite.teardown, label: "\(suite.name) › teardown", runtime: runtime, bindings: [],
                captured: setupCaptures, reproducer: reproducer)
        }
        return entries
    }

    /// Why a `websocket:` step or a GraphQL subscription has no command.
    static let webSocketProblem =
        "a WebSocket conversation (a websocket: step or a GraphQL subscription), which a curl command cannot hold; "
        + "apitest run runs it"

    /// The entries of `steps`, those before each step having captured what it names.
    private static func steps(
        _ steps: [Step], label: String, runtime: SuiteRuntime, bindings: [TestCase.Binding], captured: Set<String>,
        reproducer: ReproduceBuilder
    ) -> [Entry] {
        var context = runtime.context
        context.setBuiltins()
        for binding in bindings { context.set(binding.name, binding.value, secret: false) }
        var captured = captured
        var entries: [Entry] = []
        for (index, step) in steps.enumerated() {
            let stepLabel = "\(label) › step \(index + 1)"
            // The request as a run would build it with each unknown capture as its `{{ name }}` text: for its
            // credentials (masked where the suite writes them out) and to hold the command to.
            var known = context
            for name in captured { known.set(name, .string("{{ \(name) }}"), secret: false) }
            if step.websocket != nil || GraphQLSubscriptionRunner.isSubscription(step, context: known) {
                // Not a URL the suite got wrong: a conversation no curl command holds (curl 7.88 has no WebSocket).
                entries.append(Entry(label: stepLabel, command: nil, problem: Self.webSocketProblem))
                captured.formUnion(step.captures.map(\.name))
                continue
            }
            if let grpc = step.grpc {
                entries.append(
                    grpcEntry(
                        step, grpc, label: stepLabel, runtime: runtime, known: known, context: context,
                        captured: captured, reproducer: reproducer))
                captured.formUnion(step.captures.map(\.name))
                continue
            }
            do {
                // No token is fetched: the command sends `${APITEST_OAUTH2_TOKEN}`; a random stand-in here is
                // masked only where it would appear, which is nowhere.
                let accessToken =
                    RequestBuilder.oauth2(of: step.request, defaults: runtime.suite.defaults) == nil
                    ? nil : UUID().uuidString
                let request = try reproducer.builder.build(
                    step.request, runtime: runtime, context: known, accessToken: accessToken)
                let masker = runtime.masker.adding(SecretMasker.credentials(of: request))
                let command = try reproducer.command(
                    for: step.request, runtime: runtime, context: context, unknownCaptures: captured, sent: nil,
                    masker: masker)
                entries.append(Entry(label: stepLabel, command: command, problem: nil))
            } catch {
                entries.append(Entry(label: stepLabel, command: nil, problem: error.sealed(by: runtime.masker).message))
            }
            captured.formUnion(step.captures.map(\.name))
        }
        return entries
    }

    /// The grpcurl command of a `grpc:` step (the connection built as the step runner builds it, for its
    /// credentials), or why it has none.
    private static func grpcEntry(
        _ step: Step, _ grpc: GRPCSpec, label: String, runtime: SuiteRuntime, known: TemplateContext,
        context: TemplateContext, captured: Set<String>, reproducer: ReproduceBuilder
    ) -> Entry {
        do throws(TestError) {
            var connection = step.request
            var url = runtime.serializer.baseURL ?? ""
            if grpc.hasURL {
                do throws(TemplateError) {
                    url = try step.request.url.renderURL(known)
                } catch {
                    throw TestError(.template(error), location: step.request.url.location)
                }
            }
            connection.url = Template(literal: ReproduceBuilder.httpURL(of: url), location: step.request.url.location)
            let accessToken =
                RequestBuilder.oauth2(of: connection, defaults: runtime.suite.defaults) == nil
                ? nil : UUID().uuidString
            let request = try reproducer.builder.build(
                connection, runtime: runtime, context: known, accessToken: accessToken)
            let masker = runtime.masker.adding(SecretMasker.credentials(of: request))
            let command = try reproducer.grpcCommand(
                for: step, spec: grpc, runtime: runtime, context: context, unknownCaptures: captured, sent: nil,
                masker: masker)
            return Entry(label: label, command: command, problem: nil)
        } catch {
            return Entry(label: label, command: nil, problem: error.sealed(by: runtime.masker).message)
        }
    }
}

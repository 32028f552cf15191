import APITestHTTP
import APITestJSON
import APITestReproduce
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation

/// Builds the curl command of a step's request (`StepResult.reproduce`, `--curl`, `apitest export curl`).
///
/// The request is built by the runner's own `RequestBuilder`, not templated a second time: twice, in contexts where
/// every secret is replaced by a stand-in (``ReproduceSentinels``) and each capture not taken yet by another. The
/// stand-ins are then found in what was built and written as `"${NAME}"` (an environment variable), the masker's
/// placeholder (a secret no variable holds) or `{{ name }}` (a capture). So the real value of a secret is never in
/// what is rendered, in any encoding. A stand-in that a filter changed differs between the two renderings: that
/// part of the field becomes the placeholder, with a note.
struct ReproduceBuilder: Sendable {
    /// Builds the requests.
    let builder: RequestBuilder
    /// The time allowed for a transfer when neither the request nor its suite sets one (`--timeout`).
    let timeout: Duration
    /// The time allowed to connect when the request sets none (`--connect-timeout`).
    let connectTimeout: Duration

    /// A builder for a run with `options`.
    init(options: RunOptions) {
        builder = RequestBuilder(maxResponseSize: options.maxResponseSize, transportOverrides: options.transport)
        let session = RunService.sessionConfiguration(for: options)
        timeout = session.timeout
        connectTimeout = session.connectTimeout
    }

    /// The command of `spec` rendered in `context`.
    ///
    /// - Parameters:
    ///   - unknownCaptures: names captured only when the test runs, written as `{{ name }}` (export).
    ///   - sent: the request the runner built from the same `context`, when it was sent: the command is checked
    ///     against it, and each field that the variables' values do not rebuild byte for byte gets a note.
    ///   - masker: masks credentials written into the suite (and any secret text) in what stays literal.
    func command(
        for spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext, unknownCaptures: Set<String> = [],
        sent: HTTPRequest?, masker: SecretMasker
    ) throws(TestError) -> ReproduceCommand {
        var firstSentinels = ReproduceSentinels()
        var secondSentinels = ReproduceSentinels()
        // The same stand-ins again: whether the request renders the same twice (no `uuid()` or `now()` in it).
        var thirdSentinels = firstSentinels
        let first = try render(
            spec, runtime: runtime, context: context, unknownCaptures: unknownCaptures, sentinels: &firstSentinels)
        let second = try render(
            spec, runtime: runtime, context: context, unknownCaptures: unknownCaptures, sentinels: &secondSentinels)
        let third = try render(
            spec, runtime: runtime, context: context, unknownCaptures: unknownCaptures, sentinels: &thirdSentinels)
        var writer = CurlCommandWriter(
            first: firstSentinels, second: secondSentinels, context: context, sent: sent, masker: masker)
        writer.rendersTheSame = first.url == third.url && first.headers == third.headers && first.body == third.body
        writer.write(first, second, timeout: timeout, connectTimeout: connectTimeout)
        return writer.command
    }

    /// The request of `spec` with stand-ins of `sentinels` for every secret and for `unknownCaptures`.
    private func render(
        _ spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext, unknownCaptures: Set<String>,
        sentinels: inout ReproduceSentinels
    ) throws(TestError) -> HTTPRequest {
        let (shadow, serializer) = try shadowed(
            context, runtime: runtime, unknownCaptures: unknownCaptures, sentinels: &sentinels, location: spec.location)
        return try build(spec, runtime: runtime, shadow: shadow, serializer: serializer, sentinels: &sentinels)
    }

    /// The context with stand-ins of `sentinels` for every secret and for `unknownCaptures`, and the suite's
    /// serializer with its baseURL rendered from it (an error located at `location`).
    func shadowed(
        _ context: TemplateContext, runtime: SuiteRuntime, unknownCaptures: Set<String>,
        sentinels: inout ReproduceSentinels, location: SourceLocation
    ) throws(TestError) -> (shadow: TemplateContext, serializer: RequestSerializer) {
        let shadow = sentinels.shadow(
            of: context, suite: runtime.suite, suiteContext: runtime.context, unknownCaptures: unknownCaptures)
        var serializer = runtime.serializer
        do {
            serializer.baseURL = try runtime.suite.baseURL?.render(shadow)
        } catch {
            throw TestError(.template(error), location: location)
        }
        return (shadow, serializer)
    }

    /// `spec` built from `shadow` (see ``shadowed(_:runtime:unknownCaptures:sentinels:location:)``); an `oauth2`
    /// request sends the token as a variable, so the command never holds one.
    func build(
        _ spec: RequestSpec, runtime: SuiteRuntime, shadow: TemplateContext, serializer: RequestSerializer,
        sentinels: inout ReproduceSentinels
    ) throws(TestError) -> HTTPRequest {
        let accessToken =
            RequestBuilder.oauth2(of: spec, defaults: runtime.suite.defaults) == nil
            ? nil : sentinels.token(for: .accessToken)
        return try builder.build(
            spec, runtime: runtime, context: shadow, serializer: serializer, accessToken: accessToken)
    }
}

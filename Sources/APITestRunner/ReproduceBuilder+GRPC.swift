import APITestHTTP
import APITestJSON
import APITestReproduce
import APITestResults
import APITestSecrets
import APITestSuite

// MARK: - grpcurl commands

extension ReproduceBuilder {
    /// The `grpcurl` command of a `grpc:` step rendered in `context` (`StepResult.reproduce`, `--curl`, `apitest
    /// export curl`), built as the curl command of a request is: the step's connection (URL, metadata, deadline,
    /// TLS) by the runner's `RequestBuilder` and its messages from their templates, twice, with stand-ins for every
    /// secret and each capture of `unknownCaptures`, so no secret's value is in what is rendered.
    func grpcCommand(
        for step: Step, spec: GRPCSpec, runtime: SuiteRuntime, context: TemplateContext,
        unknownCaptures: Set<String> = [], sent: HTTPRequest?, masker: SecretMasker
    ) throws(TestError) -> ReproduceCommand {
        var firstSentinels = ReproduceSentinels()
        var secondSentinels = ReproduceSentinels()
        // The same stand-ins again: whether the call renders the same twice (no `uuid()` or `now()` in it).
        var thirdSentinels = firstSentinels
        let first = try render(step, spec, runtime, context, unknownCaptures, &firstSentinels)
        let second = try render(step, spec, runtime, context, unknownCaptures, &secondSentinels)
        let third = try render(step, spec, runtime, context, unknownCaptures, &thirdSentinels)
        var writer = CurlCommandWriter(
            first: firstSentinels, second: secondSentinels, context: context, sent: sent, masker: masker)
        writer.rendersTheSame =
            first.request.url == third.request.url && first.request.headers == third.request.headers
            && first.messages == third.messages && first.authority == third.authority
        let setting = runtime.suite.grpc
        let call = GRPCurlCall(
            method: spec.method, messages: first.messages,
            otherMessages: second.messages, isMessageList: spec.isMessageList, authority: first.authority,
            otherAuthority: second.authority, maxMessageSize: spec.maxMessageSize,
            protoFiles: setting?.reflection == true ? [] : setting?.protoFiles ?? [],
            importPaths: setting?.importPaths ?? [], directory: runtime.suite.directory)
        writer.writeGRPC(
            first.request, second.request, call: call, metadataKeys: spec.metadataKeys, timeout: timeout,
            connectTimeout: connectTimeout)
        return writer.command
    }

    /// One rendering of the call with stand-ins of `sentinels`.
    private struct RenderedCall {
        var request: HTTPRequest
        var messages: [String]
        var authority: String?
    }

    /// The step's connection, messages and authority rendered with stand-ins of `sentinels`.
    private func render(
        _ step: Step, _ spec: GRPCSpec, _ runtime: SuiteRuntime, _ context: TemplateContext,
        _ unknownCaptures: Set<String>, _ sentinels: inout ReproduceSentinels
    ) throws(TestError) -> RenderedCall {
        let (shadow, serializer) = try shadowed(
            context, runtime: runtime, unknownCaptures: unknownCaptures, sentinels: &sentinels, location: spec.location)
        var connection = step.request
        let url: String
        if spec.hasURL {
            do {
                url = try step.request.url.renderURL(shadow)
            } catch {
                throw TestError(.template(error), location: step.request.url.location)
            }
        } else {
            url = serializer.baseURL ?? ""
        }
        connection.url = Template(literal: Self.httpURL(of: url), location: step.request.url.location)
        let request = try build(
            connection, runtime: runtime, shadow: shadow, serializer: serializer, sentinels: &sentinels)
        // A single call without `message:` sends an empty message; grpcurl does too without -d.
        var messages: [String] = []
        for message in spec.messages {
            do {
                messages.append(JSONWriter.string(try message.value.render(shadow)))
            } catch {
                throw TestError(.template(error), location: message.location)
            }
        }
        var authority: String?
        if let template = spec.authority {
            do {
                authority = try template.render(shadow)
            } catch {
                throw TestError(.template(error), location: template.location)
            }
        }
        return RenderedCall(request: request, messages: messages, authority: authority)
    }

    /// `grpc://` as `http://` (h2c), `grpcs://` as `https://` (TLS), a bare `host:port` (grpcurl's target) as
    /// `http://host:port`, as the step runs them; others as they are.
    static func httpURL(of url: String) -> String {
        let lower = url.prefix(8).lowercased()
        if lower.hasPrefix("grpc://") { return "http://" + url.dropFirst(7) }
        if lower.hasPrefix("grpcs://") { return "https://" + url.dropFirst(8) }
        if !url.contains("/"), let colon = url.lastIndex(of: ":") {
            let host = url[..<colon]
            let port = url[url.index(after: colon)...]
            if !host.isEmpty, !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                host.hasPrefix("[") || !host.contains(":")
            {
                return "http://" + url
            }
        }
        return url
    }
}

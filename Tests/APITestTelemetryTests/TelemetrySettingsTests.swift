import APITestResults
import Testing

@testable import APITestTelemetry

/// The `OTEL_*` environment read into ``TelemetrySettings`` as the OpenTelemetry specification says: when tracing is
/// on, where spans go, the headers, protocol, timeout and resource, a CI parent's `TRACEPARENT`, the CI's `cicd.*`
/// attributes, and the clear error of a setting that makes no exporter.
@Suite struct TelemetrySettingsTests {
    private func settings(_ environment: [String: String]) throws -> TelemetrySettings? {
        try TelemetrySettings(environment: environment, version: "9.9.9")
    }

    private func error(_ environment: [String: String]) -> TelemetrySettingsError? {
        do {
            _ = try settings(environment)
            return nil
        } catch {
            return error as? TelemetrySettingsError
        }
    }

    @Test func tracingIsOffWithoutAnEndpointOrWhenDisabled() throws {
        #expect(try settings([:]) == nil)
        #expect(try settings(["OTEL_EXPORTER_OTLP_ENDPOINT": ""]) == nil)
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]
        #expect(try settings(endpoint) != nil)
        #expect(try settings(endpoint.merging(["OTEL_SDK_DISABLED": "TRUE"]) { $1 }) == nil)
        #expect(try settings(endpoint.merging(["OTEL_SDK_DISABLED": "false"]) { $1 }) != nil)
        #expect(try settings(endpoint.merging(["OTEL_TRACES_EXPORTER": "none"]) { $1 }) == nil)
        #expect(try settings(endpoint.merging(["OTEL_TRACES_EXPORTER": "otlp"]) { $1 }) != nil)
        // An exporter apitest does not have is a warning; without otlp nothing is exported.
        #expect(try settings(endpoint.merging(["OTEL_TRACES_EXPORTER": "zipkin"]) { $1 }) == nil)
        let both = try #require(try settings(endpoint.merging(["OTEL_TRACES_EXPORTER": "otlp,console"]) { $1 }))
        #expect(both.warnings.count == 1)
        #expect(both.warnings.first?.contains("console") == true)
    }

    @Test func theTracesEndpointIsTakenAsItIsTheBaseOneGetsTheTracesPath() throws {
        #expect(try settings(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])?.endpoint == "http://c:4318/v1/traces")
        #expect(try settings(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"])?.endpoint == "http://c:4318/v1/traces")
        #expect(
            try settings(["OTEL_EXPORTER_OTLP_ENDPOINT": "https://c/otlp"])?.endpoint == "https://c/otlp/v1/traces")
        let traces = try settings([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:9/custom",
        ])
        #expect(traces?.endpoint == "http://t:9/custom")
        let bad = error(["OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"])
        #expect(bad?.variable == "OTEL_EXPORTER_OTLP_ENDPOINT")
        #expect(bad?.message.hasPrefix("OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' is not") == true)
    }

    @Test func theProtocolIsProtobufUnlessJSONIsAskedAndGRPCIsAnError() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        #expect(try settings(endpoint)?.wireProtocol == .httpProtobuf)
        #expect(
            try settings(endpoint.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"]) { $1 })?.wireProtocol
                == .httpJSON)
        #expect(
            try settings(
                endpoint.merging([
                    "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
                ]) { $1 })?.wireProtocol == .httpProtobuf)
        let grpc = error(endpoint.merging(["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"]) { $1 })
        #expect(grpc?.variable == "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        #expect(grpc?.kind == .unsupportedProtocol("grpc"))
        #expect(grpc?.message.contains("http/protobuf or http/json") == true)
    }

    @Test func headersAreDecodedAndTheTracesListWinsKeyByKey() throws {
        let read = try #require(
            try settings([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
                "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Basic%20abc, x-tenant = one ,",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "X-Tenant=two",
            ]))
        #expect(read.headers.map(\.name) == ["Authorization", "X-Tenant"])
        #expect(read.headers.map(\.value) == ["Basic abc", "two"])
        // A malformed entry is an error that does not show the entry (it may be a token).
        let bad = error([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS": "a=b,Bearer s3cr3t",
        ])
        #expect(bad?.kind == .invalidEntry(2))
        #expect(bad?.message.contains("s3cr3t") == false)
        #expect(bad?.message.hasPrefix("OTEL_EXPORTER_OTLP_HEADERS: entry 2") == true)
    }

    @Test func theTimeoutIsInMillisecondsFiveSecondsByDefault() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        #expect(try settings(endpoint)?.timeout == .seconds(5))
        #expect(
            try settings(endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "1500"]) { $1 })?.timeout
                == .milliseconds(1500))
        #expect(
            try settings(
                endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "1500", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "200"]) {
                    $1
                })?.timeout == .milliseconds(200))
        #expect(error(endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "5s"]) { $1 })?.kind == .invalidTimeout("5s"))
    }

    @Test func theServiceNameComesFromItsVariableThenTheResourceAttributes() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        func service(_ extra: [String: String]) throws -> TelemetrySpan.Value? {
            try settings(endpoint.merging(extra) { $1 })?.resource.first { $0.key == "service.name" }?.value
        }
        #expect(try service([:]) == .string("apitest"))
        #expect(try service(["OTEL_RESOURCE_ATTRIBUTES": "service.name=api-tests,team=qa"]) == .string("api-tests"))
        #expect(
            try service(["OTEL_RESOURCE_ATTRIBUTES": "service.name=api-tests", "OTEL_SERVICE_NAME": "checks"])
                == .string("checks"))
        let resource = try #require(
            try settings(endpoint.merging(["OTEL_RESOURCE_ATTRIBUTES": "team=q%20a"]) { $1 })?.resource)
        #expect(resource.contains(.init("team", .string("q a"))))
        #expect(resource.contains(.init("telemetry.sdk.version", .string("9.9.9"))))
    }

    @Test func aCIParentsTraceparentMakesTheRunItsChild() throws {
        let read = try #require(
            try settings([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
                "TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "TRACESTATE": "rojo=00f067aa0ba902b7",
            ]))
        #expect(read.trace.traceID.hex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(read.parentSpanID?.hex == "00f067aa0ba902b7")
        #expect(read.trace.sampled)
        #expect(read.trace.traceState == "rojo=00f067aa0ba902b7")
        #expect(read.warnings.isEmpty)
        // Invalid: a warning, and a trace of the run's own.
        for bad in [
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "garbage",
        ] {
            let other = try #require(
                try settings(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "TRACEPARENT": bad]))
            #expect(other.parentSpanID == nil)
            #expect(other.warnings.count == 1)
        }
        let unsampled = try settings([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
            "TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
        ])
        #expect(unsampled?.trace.sampled == false)
    }

    @Test func theCIPipelineAttributesComeFromGitHubActionsAndGitLab() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        let github = try settings(
            endpoint.merging([
                "GITHUB_ACTIONS": "true", "GITHUB_WORKFLOW": "CI", "GITHUB_RUN_ID": "42",
                "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_JOB": "test",
            ]) { $1 })?.pipeline
        #expect(
            github == [
                .init("cicd.pipeline.name", .string("CI")), .init("cicd.pipeline.run.id", .string("42")),
                .init("cicd.pipeline.run.url.full", .string("https://github.com/o/r/actions/runs/42")),
                .init("cicd.pipeline.task.name", .string("test")),
            ])
        let gitlab = try settings(
            endpoint.merging([
                "GITLAB_CI": "true", "CI_PIPELINE_NAME": "nightly", "CI_PIPELINE_ID": "7",
                "CI_PIPELINE_URL": "https://gitlab.com/o/r/-/pipelines/7",
            ]) { $1 })?.pipeline
        #expect(gitlab?.first == .init("cicd.pipeline.name", .string("nightly")))
        #expect(gitlab?.contains(.init("cicd.pipeline.run.id", .string("7"))) == true)
        #expect(try settings(endpoint)?.pipeline.isEmpty == true)
    }
}

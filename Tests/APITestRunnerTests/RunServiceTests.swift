import APITestHTTP
import APITestResults
import APITestSecurity
import APITestSuite
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// The run's one entry point: preflight problems are typed values, session settings come from the run options in
/// one place, and a run goes through the transport it is given.
@Suite struct RunServiceTests {
    private func suite(_ yaml: String, file: String = "suite.yaml") throws -> Suite {
        try SuiteLoader(environment: [:]).load(source: yaml, file: file)
    }

    @Test func flagsThatMakeNoPolicyAreAPreflightProblemOfEachSuite() throws {
        let good = try suite("tests:\n  - {name: t, request: {url: 'https://h.test/'}}\n", file: "good.yaml")
        var options = RunOptions()
        options.security = SecurityOverrides(allowInvalidCertificates: true)
        let preflight = RunService.preflight(RunRequest(suites: [good], options: options))
        #expect(preflight.problems.count == 1)
        guard case .securityPolicy(let place, let message)? = preflight.problems.first else {
            Issue.record("expected a security problem, got \(preflight.problems)")
            return
        }
        #expect(place == "good.yaml")
        #expect(message == SecurityProblem(.invalidCertificatesNeedPin).message(in: .plainWords))
    }

    @Test func policiesOfSuitesTheSelectionLeftOutAreStillChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runservice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The loader checks that the file exists; only building the policy reads it and finds no certificate.
        try "not a certificate\n".write(to: folder.appendingPathComponent("pin.pem"), atomically: true, encoding: .utf8)
        let selected = try suite("tests:\n  - {name: t, request: {url: 'http://h.test/'}}\n", file: "a.yaml")
        let other = try suite(
            "security: {pinning: certificate, certificates: [pin.pem]}\n"
                + "tests:\n  - {name: u, request: {url: 'https://h.test/'}}\n",
            file: folder.appendingPathComponent("b.yaml").path)
        let request = RunRequest(suites: [selected], options: RunOptions())
        #expect(RunService.preflight(request).problems.isEmpty)
        let problems = RunService.preflight(request, loaded: [selected, other]).problems
        #expect(problems.count == 1, "\(problems)")
        if case .securityPolicy(let place, _)? = problems.first { #expect(place.contains("b.yaml:1:")) }
    }

    @Test func theRunUsesThePoliciesThePreflightBuiltAndReadsNoCertificateAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runservice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("pin.pem")
        try "not a certificate\n".write(to: certificate, atomically: true, encoding: .utf8)
        let pinned = try suite(
            "security: {pinning: certificate, certificates: [pin.pem]}\n"
                + "tests:\n  - {name: t, request: {url: 'https://h.test/'}}\n",
            file: folder.appendingPathComponent("s.yaml").path)
        var request = RunRequest(suites: [pinned], options: RunOptions())
        let preflight = RunService.preflight(request)
        guard case .securityPolicy(_, let message)? = preflight.problems.first else {
            Issue.record("expected a security problem, got \(preflight.problems)")
            return
        }
        // The file is gone by the time the run starts: a run that read it again would say so.
        try FileManager.default.removeItem(at: certificate)
        final class Errors: Reporter {
            let messages = Mutex<[String]>([])
            func handle(_ event: RunEvent) {
                if case .testFinished(let result) = event, let error = result.error {
                    messages.withLock { $0.append(error.message) }
                }
            }
        }
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: "") }
        request.securityPolicies = preflight.policies
        let built = Errors()
        _ = await RunService.run(request, reporter: built, transport: transport)
        #expect(built.messages.withLock { $0 } == [message])
        request.securityPolicies = nil
        let rebuilt = Errors()
        _ = await RunService.run(request, reporter: rebuilt, transport: transport)
        #expect(rebuilt.messages.withLock { $0.count } == 1)
        #expect(rebuilt.messages.withLock { $0 } != [message])
        #expect(transport.paths.isEmpty)
    }

    @Test func sessionSettingsComeFromTheRunOptionsInOnePlace() {
        var options = RunOptions(jobs: 7)
        options.timeout = .seconds(3)
        options.connectTimeout = .milliseconds(500)
        let configuration = RunService.sessionConfiguration(for: options)
        #expect(configuration.maxConnections == 7)
        #expect(configuration.timeout == .seconds(3))
        #expect(configuration.connectTimeout == .milliseconds(500))
        let defaults = RunService.sessionConfiguration(for: RunOptions(jobs: 0))
        #expect(defaults.maxConnections == 1)
        #expect(defaults.timeout == SessionConfiguration().timeout)
        #expect(defaults.connectTimeout == SessionConfiguration().connectTimeout)
    }

    @Test func aRunGoesThroughTheGivenTransport() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: #"{"a":1}"#) }
        let suite = try suite("tests:\n  - {name: t, request: {url: 'http://h.test/x'}, expect: {json: {$.a: 1}}}\n")
        final class Nothing: Reporter { func handle(_ event: RunEvent) {} }
        let summary = await RunService.run(
            RunRequest(suites: [suite], options: RunOptions()), reporter: Nothing(), transport: transport)
        #expect(summary.passed == 1)
        #expect(transport.paths == ["/x"])
    }
}

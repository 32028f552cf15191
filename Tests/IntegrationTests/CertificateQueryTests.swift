import Foundation
import Testing

/// The `certificate` queries and the body digests, through the `apitest` binary against nginx serving a chain made
/// at test time.
@Suite(.serialized) final class CertificateQueryTests {
    let fixture: PinningFixture

    init() async throws {
        fixture = try await PinningFixture.start()
    }

    deinit {
        fixture.stop()
    }

    func run(_ expect: String) async throws -> ProcessResult {
        let suite = fixture.directory.appendingPathComponent("cert-\(UUID().uuidString).yaml")
        try """
        security: {caFile: root.pem}
        tests:
          - name: the leaf certificate
            request: {url: "\(fixture.url("chain"))"}
            expect:
        \(expect)
        """.write(to: suite, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(
            try TestBinaries.url("apitest"), ["run", suite.path, "--jobs", "1"], environment: environment)
    }

    @Test func certificateFactsAndDigests() async throws {
        let result = try await run(
            """
                  certificate:
                    subject: CN=localhost
                    issuer: {contains: intermediate}
                    notAfter: {daysAfterNow: {between: [20, 31]}}
                    notBefore: {daysBeforeNow: {between: [-1, 1]}}
                    serialNumber: {matches: '^[0-9A-F]+$'}
                    subjectAlternativeNames: {contains: "DNS:localhost"}
                  sha256: \(Self.bodySHA256)
                  md5: \(Self.bodyMD5)
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func aFailedCertificateCheckSaysWhatTheCertificateHolds() async throws {
        let result = try await run(
            """
                  certificate:
                    subject: CN=example.com
                    notAfter: {daysAfterNow: {greaterThan: 365}}
            """)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("certificate subject: expected \"CN=example.com\", got \"CN=localhost\""))
        #expect(result.stdout.contains("certificate notAfter | daysAfterNow: expected > 365, got "))
    }

    @Test func aSecurityBlockComesFromAnIncludedFileWithItsPathsRelativeToThatFile() async throws {
        let shared = fixture.directory.appendingPathComponent("tls-settings.yaml")
        try
            "security: {caFile: root.pem, pins: [\"\(fixture.pins["inter"] ?? "")\", \"\(fixture.pins["root"] ?? "")\"]}\n"
            .write(to: shared, atomically: true, encoding: .utf8)
        let folder = fixture.directory.appendingPathComponent("suites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let suite = folder.appendingPathComponent("suite.yaml")
        try """
        include: ../tls-settings.yaml
        tests:
          - name: pinned through the included block
            request: {url: "\(fixture.url("chain"))"}
            expect:
              certificate: {subject: CN=localhost}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let result = try await runProcess(try TestBinaries.url("apitest"), ["run", suite.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    /// The digests of the body nginx sends, `{"server":"chain"}`, from `sha256sum` and `md5sum`.
    static let bodySHA256 = "2425de4c56b78816ed18d769935fc3b7e8d2a90ece1ca24ad0e7acbf1d790671"
    static let bodyMD5 = "99f466235379725226f012d5501355e7"
}

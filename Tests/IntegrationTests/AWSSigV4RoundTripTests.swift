import APITestJSON
import Foundation
import Testing

/// AWS Signature Version 4 credentials through every layer that holds them, all as the one `AWSSigV4Credentials`:
/// `apitest import curl` writes them into a suite (`SuiteDocument.Auth.awsSigV4`, the secret read from the
/// environment), `apitest run` loads them as templates (`AuthSpec.awsSigV4`), renders them for the request into the
/// HTTP layer's values (`HTTPAuthentication.awsSigV4`), and libcurl signs with them. The `Authorization` header that
/// reaches the server (nginx echoes it) must be the one the AWS test suite lists for the same request
/// (`get-vanilla`, `Fixtures/aws-sig-v4-test-suite`); a wrong secret must fail the same check.
@Suite(.serialized) final class AWSSigV4RoundTripTests {
    let server: TransportServer

    init() throws {
        server = try TransportServer()
    }

    deinit {
        server.stop()
    }

    /// The example secret of the AWS test suite.
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"

    @Test func importedCredentialsSignAsAWSDoes() async throws {
        let vector = try #require(try AWSSigV4VectorTests.vectors().vectors.first { $0.name == "get-vanilla" })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-sigv4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let command =
            "curl --aws-sigv4 aws:amz:us-east-1:service -u \"AKIDEXAMPLE:$AWS_SECRET_ACCESS_KEY\" "
            + "-H 'X-Amz-Date: 20150830T123600Z' "
            + "--connect-to example.amazonaws.com:80:127.0.0.1:\(server.authorizationPort) http://example.amazonaws.com/"
        try command.write(to: folder.appendingPathComponent("aws.sh"), atomically: true, encoding: .utf8)

        let imported = try await runProcess(
            try TestBinaries.url("apitest"), ["import", "curl", "-f", "aws.sh", "-o", "aws.yaml", "--name", "aws"],
            environment: ["NO_COLOR": "1"], currentDirectory: folder)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let suite = folder.appendingPathComponent("aws.yaml")
        let text = try String(contentsOf: suite, encoding: .utf8)
        // The credentials as the suite holds them: the key as written, the secret from the environment.
        #expect(text.contains("awsSigV4:\n"), "\(text)")
        #expect(text.contains("accessKey: AKIDEXAMPLE\n"), "\(text)")
        #expect(text.contains("secretKey: \"{{ env.AWS_SECRET_ACCESS_KEY }}\"\n"), "\(text)")
        #expect(text.contains("region: us-east-1\n") && text.contains("service: service\n"), "\(text)")
        #expect(!text.contains(Self.secret))

        // The test's expectation: the signature AWS lists, appended to the test (the last item of the file).
        let expectation = "    expect:\n      body: \(JSONWriter.string(.string(vector.authorization)))\n"
        let handle = try FileHandle(forWritingTo: suite)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(expectation.utf8))
        try handle.close()

        let signed = try await runProcess(
            try TestBinaries.url("apitest"), ["run", "aws.yaml"],
            environment: ["NO_COLOR": "1", "AWS_SECRET_ACCESS_KEY": Self.secret], currentDirectory: folder)
        #expect(signed.exitCode == 0, "\(signed.stdout)\n\(signed.stderr)\n\(text)")

        // The control: another secret signs otherwise, and the same check sees it.
        let wrong = try await runProcess(
            try TestBinaries.url("apitest"), ["run", "aws.yaml"],
            environment: ["NO_COLOR": "1", "AWS_SECRET_ACCESS_KEY": "not-the-secret"], currentDirectory: folder)
        #expect(wrong.exitCode == 1, "\(wrong.stdout)\n\(wrong.stderr)")
    }
}

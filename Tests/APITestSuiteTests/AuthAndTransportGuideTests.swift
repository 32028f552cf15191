import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `docs/auth.md` and `docs/transport.md`: every YAML example loads, and every kind and key the loader accepts is
/// in the guide.
struct AuthAndTransportGuideTests {
    static func guide(_ name: String) -> Reference {
        let url = SuiteFormatReferenceTests.repository.appendingPathComponent("docs/\(name)")
        return Reference((try? String(contentsOf: url, encoding: .utf8)) ?? "")
    }

    @Test(arguments: ["auth.md", "transport.md"])
    func everyExampleLoads(_ name: String) throws {
        let guide = Self.guide(name)
        let blocks = guide.yamlBlocks
        #expect(blocks.count >= 5, "\(name) has only \(blocks.count) YAML examples")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, text) in ["certs/staging-root.pem": "PEM", "auth/api.netrc": "machine api.example.com\n"] {
            let file = URL(fileURLWithPath: "\(directory)/\(path)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let environment = [
            "API_PASSWORD": "secret", "ADMIN_TOKEN": "secret", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
            "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "secret", "API_TOKEN": "secret",
        ]
        let loader = SuiteLoader(environment: environment, overrides: [:])
        try SuiteFormatReferenceTests.loadEach(blocks, of: "docs/\(name)", in: directory, with: loader)
    }

    @Test func theAuthGuideNamesEveryKindAndOAuth2Key() throws {
        let text = try String(
            contentsOf: SuiteFormatReferenceTests.repository.appendingPathComponent("docs/auth.md"), encoding: .utf8)
        for word in AuthSpec.kinds + OAuth2Spec.keys + OAuth2Spec.Flow.allCases.map(\.rawValue)
            + OAuth2Spec.ClientAuthentication.allCases.map(\.rawValue)
        {
            #expect(text.contains("`\(word)`"), "docs/auth.md does not name `\(word)`")
        }
    }

    @Test func theTransportGuideNamesEveryKeyAndFlag() throws {
        let text = try String(
            contentsOf: SuiteFormatReferenceTests.repository.appendingPathComponent("docs/transport.md"),
            encoding: .utf8)
        for key in TransportSpec.keys { #expect(text.contains("`\(key)`"), "docs/transport.md does not name `\(key)`") }
        for flag in ["--resolve", "--connect-to", "--unix-socket", "--http-version", "--proxy", "--noproxy"] {
            #expect(text.contains(flag), "docs/transport.md does not name \(flag)")
        }
    }
}

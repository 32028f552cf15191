import Foundation
import Testing

/// `apitest --version` (issue 37): apitest's version, then the libcurl (with its TLS backend), OpenSSL and libyaml
/// the binary runs on, as the libraries themselves report them at run time, in every place `--version` may stand.
@Suite struct VersionCommandTests {
    /// The output of `tool arguments`, trimmed; `nil` when the tool is not installed or fails.
    func toolOutput(_ tool: String, _ arguments: [String]) async throws -> String? {
        guard let url = try? TestBinaries.tool(tool) else { return nil }
        let run = try await runProcess(url, arguments)
        guard run.exitCode == 0 else { return nil }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The four lines of `apitest --version`.
    func versionLines(_ arguments: [String] = ["--version"]) async throws -> [String] {
        let run = try await runProcess(try TestBinaries.url("apitest"), arguments)
        #expect(run.exitCode == 0, "\(arguments): \(run.stderr)")
        #expect(run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        return run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether `text` is a dotted version such as `7.88.1` or `0.2.5`.
    func isVersion(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    @Test func namesApitestAndTheLibrariesItRunsOn() async throws {
        let lines = try await versionLines()
        try #require(lines.count == 5 && lines[4].isEmpty, "four lines and a final newline: \(lines)")
        let apitest = lines[0].split(separator: " ")
        #expect(apitest.count == 2 && apitest[0] == "apitest" && isVersion(apitest[1]), "\(lines[0])")

        // libcurl 7.88.1 (OpenSSL/3.0.17): curl-config (libcurl4-openssl-dev) names the same library.
        let curl = lines[1].split(separator: " ")
        #expect(curl.count == 3 && curl[0] == "libcurl" && isVersion(curl[1]), "\(lines[1])")
        #expect(curl.last?.hasPrefix("(OpenSSL/") == true && curl.last?.hasSuffix(")") == true, "\(lines[1])")
        if let configured = try await toolOutput("curl-config", ["--version"]) {
            #expect(configured == "libcurl \(curl[1])", "curl-config says \(configured); apitest says \(lines[1])")
        }

        // OpenSSL 3.0.17 1 Jul 2025: the text `openssl version` prints first (the same libcrypto).
        let openSSL = lines[2].split(separator: " ")
        #expect(openSSL.count >= 2 && openSSL[0] == "OpenSSL" && isVersion(openSSL[1]), "\(lines[2])")
        #expect(curl.last == "(OpenSSL/\(openSSL[1]))", "libcurl's TLS backend is this OpenSSL: \(lines)")
        if let tool = try await toolOutput("openssl", ["version"]) {
            #expect(tool.hasPrefix(lines[2]), "openssl version says \(tool); apitest says \(lines[2])")
        }

        // libyaml 0.2.5: Debian's libyaml-0-2 is 0.2.5-1.
        let yaml = lines[3].split(separator: " ")
        #expect(yaml.count == 2 && yaml[0] == "libyaml" && isVersion(yaml[1]), "\(lines[3])")
        if let package = try await toolOutput("dpkg-query", ["-W", "-f=${Version}", "libyaml-0-2"]) {
            #expect(package.hasPrefix("\(yaml[1])-"), "dpkg says libyaml-0-2 \(package); apitest says \(lines[3])")
        }
    }

    /// `--version` after a command, and after `run`'s arguments (which its quick scanner leaves to
    /// swift-argument-parser), prints the same text; `-h` still prints help.
    @Test func everySpellingPrintsTheSameText() async throws {
        let root = try await versionLines()
        for arguments in [["run", "--version"], ["run", "suite.yaml", "--version"], ["validate", "--version"]] {
            #expect(try await versionLines(arguments) == root, "\(arguments)")
        }
        let help = try await runProcess(try TestBinaries.url("apitest"), ["run", "-h"])
        #expect(help.exitCode == 0 && help.stdout.contains("USAGE: apitest run"), "\(help.stdout.prefix(300))")
    }
}

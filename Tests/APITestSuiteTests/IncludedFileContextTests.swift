import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// An included file is parsed in a context of its own that shares the suite's diagnostics and budgets: what is
/// counted for the whole suite counts across files, what is asked of one file stays with that file.
@Suite struct IncludedFileContextTests {
    @Test func theValueBudgetCountsTheSuiteAndItsIncludesTogether() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 900 aliases of a 1,000-item list in the suite, then 200 more in an included steps file: 1.1 million
        // nodes in all, over the cap of 1 million, though each file alone is under it.
        let items = "[" + Array(repeating: "1", count: 1000).joined(separator: ", ") + "]"
        let suite = """
            variables:
              a: &a \(items)
              big: [\(Array(repeating: "*a", count: 900).joined(separator: ", "))]
            tests:
              - name: t
                steps:
                  - include: steps.yaml
                  - request: {url: 'http://127.0.0.1:9/', json: {x: 1}}
            """
        let steps =
            "- request:\n    url: 'http://127.0.0.1:9/'\n    json: &b \(items)\n"
            + String(repeating: "- request: {url: 'http://127.0.0.1:9/', json: *b}\n", count: 200)
        try writeFile(steps, to: "steps.yaml", in: directory)
        #expect(
            errors(suite, file: directory + "/suite.yaml") == [
                "\(directory)/steps.yaml:3:11: error: the suite's values are too large (over 1000000 nodes once "
                    + "aliases are expanded)"
            ])
    }

    @Test func aCheckOfOneFileAsksAboutThatFileOnly() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The single-pin warning is left out when the file that holds the pin has errors; an error of the suite
        // itself does not silence the warning of the file it includes.
        try writeFile(
            "security: {pinning: publicKey, pins: ['sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=']}\n",
            to: "security.yaml", in: directory)
        let suite = """
            nmae: x
            include: security.yaml
            tests:
              - name: t
                request: {url: 'https://127.0.0.1:9/'}
            """
        #expect(
            errors(suite, file: directory + "/suite.yaml") == [
                "\(directory)/suite.yaml:1:1: error: unknown key 'nmae' in the suite; did you mean 'name'?",
                "\(directory)/security.yaml:1:12: warning: only one pin: add a backup pin (a key not yet in use, or "
                    + "the CA's key) (a key rotation would otherwise lock out every client that ships this pin; "
                    + "TrustKit requires two)",
            ])
    }
}

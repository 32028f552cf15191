import Foundation
import Testing

/// A `url` that renders to nothing (`url: "{{ path }}"` with `path` empty, or only spaces) is the located error
/// `url: ""` gets when the suite loads, at the `url`, and nothing is sent; the old code silently sent the request to
/// the base URL (the demo API's `/` answered and the test passed).
@Suite struct BlankURLTests {
    @Test func aURLThatRendersToNothingIsALocatedError() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: blank url
            baseURL: \(demo.baseURL)
            variables: {empty: "", spaces: "  "}
            tests:
              - name: empty
                request: {url: "{{ empty }}"}
              - name: spaces
                request: {url: "{{ spaces }}"}
              - name: fine
                request: {url: /health}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path, "--jobs", "1"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 2 errored"), "\(result.stdout)")
        #expect(
            result.stdout.contains("suite.yaml:6:20: 'url' is empty: '{{ empty }}' renders to nothing; write './' "),
            "\(result.stdout)")
        #expect(
            result.stdout.contains("suite.yaml:8:20: 'url' is blank: '{{ spaces }}' renders to only spaces"),
            "\(result.stdout)")
    }
}

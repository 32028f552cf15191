import Foundation
import Testing

/// Folder discovery on the command line: a linked folder is searched, a broken or looping link is a warning on
/// standard error that names it (issue 35, section 5), never silence.
@Suite struct DiscoveryLinkTests {
    @Test func validateSearchesLinkedFoldersAndWarnsForBrokenLinks() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-discovery-\(UUID().uuidString)")
        let suites = directory.appendingPathComponent("suites")
        let shared = directory.appendingPathComponent("shared")
        let manager = FileManager.default
        try manager.createDirectory(at: suites, withIntermediateDirectories: true)
        try manager.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: directory) }
        let suite = "baseURL: http://127.0.0.1:9\ntests:\n  - name: one\n    request: {url: /}\n"
        try suite.write(to: suites.appendingPathComponent("own.yaml"), atomically: true, encoding: .utf8)
        try suite.write(to: shared.appendingPathComponent("linked.yaml"), atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(atPath: suites.path + "/shared", withDestinationPath: "../shared")
        try manager.createSymbolicLink(atPath: suites.path + "/back", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: suites.path + "/gone.yaml", withDestinationPath: "missing.yaml")

        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["validate", "suites"], currentDirectory: directory, timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result.stderr)")
        // own.yaml and shared/linked.yaml, each once (back/ leads to the folder above, whose suites/ is searched).
        #expect(result.stdout == "2 suites, 2 tests: valid\n", "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "warning: suites/gone.yaml: a symbolic link to 'missing.yaml', which does not exist"),
            "\(result.stderr)")
    }
}

import Foundation
import Testing

/// Folders hold suites and the files they include: a file that a suite includes is not run as a suite of its own,
/// unless it is named on the command line.
@Suite struct IncludeDiscoveryTests {
    @Test func includedFilesInAFolderAreNotSuites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-inc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("shared"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "variables: {who: shared}\n".write(
            to: folder.appendingPathComponent("shared/vars.yaml"), atomically: true, encoding: .utf8)
        try "- request: {url: 'http://127.0.0.1:9/'}\n".write(
            to: folder.appendingPathComponent("shared/steps.yaml"), atomically: true, encoding: .utf8)
        try """
        include: shared/vars.yaml
        tests:
          - name: "uses {{ who }}"
            skip: only loaded
            steps:
              - include: shared/steps.yaml
        """.write(to: folder.appendingPathComponent("suite.yaml"), atomically: true, encoding: .utf8)
        let apitest = try TestBinaries.url("apitest")

        let folderRun = try await runProcess(apitest, ["validate", folder.path])
        #expect(folderRun.exitCode == 0, "\(folderRun.stderr)")
        #expect(folderRun.stdout == "1 suite, 1 test: valid\n")

        // Named explicitly, a fragment is a suite, and it has no tests.
        let named = try await runProcess(
            apitest, ["validate", folder.path, folder.appendingPathComponent("shared/vars.yaml").path])
        #expect(named.exitCode == 2)
        #expect(named.stderr.contains("shared/vars.yaml:1:1"))
        #expect(named.stderr.contains("the suite has no 'tests'"))
    }

    @Test func includeCyclesInAFolderFailTheRunInsteadOfVanishing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-cyc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let apitest = try TestBinaries.url("apitest")
        let test = "tests:\n  - name: t\n    steps:\n      - request: {url: 'http://127.0.0.1:9/'}\n"

        // A file including itself.
        try ("include: a.yaml\n" + test).write(
            to: folder.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let result = try await runProcess(apitest, [command, folder.path])
            #expect(result.exitCode == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("include cycle: a.yaml → a.yaml"), "\(result.stderr)")
            #expect(!result.stdout.contains("0 tests"))
        }

        // Two files including each other, neither with tests.
        try "include: b.yaml\nvariables: {x: 1}\n".write(
            to: folder.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try "include: a.yaml\nvariables: {y: 1}\n".write(
            to: folder.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        let pair = try await runProcess(apitest, ["validate", folder.path])
        #expect(pair.exitCode == 2)
        #expect(pair.stderr.contains("include cycle: a.yaml → b.yaml → a.yaml"), "\(pair.stderr)")
        #expect(pair.stderr.contains("include cycle: b.yaml → a.yaml → b.yaml"), "\(pair.stderr)")
        #expect(pair.stderr.contains("in 2 files; nothing was run."))
    }
}

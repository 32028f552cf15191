import Foundation
import Testing

/// `apitest import har` end to end: the HAR fixture (written to the HAR 1.2 specification as Chromium's DevTools
/// export writes it, against the demo's routes) imported, and the suite run green against a fresh demo with the
/// recording's secrets given in the environment.
@Suite struct HARImportTests {
    /// The secrets of the recording, as the suite reads them.
    static let secrets = [
        "AUTHORIZATION": "eyJhbGciOiJIUzI1NiJ9.demo.c2lnbmF0dXJl", "COOKIE_SESSION": "5f2b8c1e9a",
        "COOKIE_THEME": "dark", "ACCESS_TOKEN": "9c1d7e4f", "X_API_KEY": "k-8812-demo",
        "AUTHORIZATION_2": "YW5uOnMzY3JldA==",
    ]

    @Test func theRecordingReplaysGreen() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("APITestImportTests/Fixtures/har/demo.har")
        try FileManager.default.copyItem(at: fixture, to: folder.appendingPathComponent("demo.har"))
        let apitest = try TestBinaries.url("apitest")

        let imported = try await runProcess(
            apitest, ["import", "har", "demo.har", "-o", "demo.yaml"], environment: ["NO_COLOR": "1"],
            currentDirectory: folder)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let suite = try String(contentsOf: folder.appendingPathComponent("demo.yaml"), encoding: .utf8)
        for value in Self.secrets.values where value != "dark" {
            #expect(!suite.contains(value), "\(value) is written into the suite")
        }
        #expect(imported.stderr.contains("wrote demo.yaml: 10 tests"))
        #expect(
            imported.stderr.contains(
                "the suite reads COOKIE_SESSION, COOKIE_THEME, AUTHORIZATION, ACCESS_TOKEN, X_API_KEY, AUTHORIZATION_2 from the "
                    + "environment"),
            "\(imported.stderr)")

        // Without the secrets the suite does not load: nothing is sent with a credential missing.
        let unset = try await runProcess(
            apitest, ["validate", "demo.yaml"], environment: ["NO_COLOR": "1"], currentDirectory: folder)
        #expect(unset.exitCode != 0)
        #expect((unset.stdout + unset.stderr).contains("AUTHORIZATION"))

        var environment = Self.secrets
        environment["NO_COLOR"] = "1"
        let run = try await runProcess(
            apitest, ["run", "demo.yaml", "--jobs", "1", "--var", "origin=\(demo.baseURL)"], environment: environment,
            currentDirectory: folder)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)\n\(suite)")
        #expect(run.stdout.contains("10 passed"), "\(run.stdout)")

        // A changed secret fails where the server checks it: the basic credentials.
        environment["AUTHORIZATION_2"] = "YW5uOndyb25n"
        let wrong = try await runProcess(
            apitest, ["run", "demo.yaml", "--jobs", "1", "--var", "origin=\(demo.baseURL)", "--filter", "basic-auth"],
            environment: environment, currentDirectory: folder)
        #expect(wrong.exitCode == 1, "\(wrong.stdout)")
    }

    @Test func aRecordingOfHeadlessChromiumReplaysGreen() async throws {
        // Recorded by `Fixtures/har/record-chromium.py` (headless Chromium 156 through the DevTools protocol) against
        // apitest-demo on port 18080: a page, its fetch and XHR calls with cookies and credentials, and an image.
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("APITestImportTests/Fixtures/har/chromium-recorded.har")
        try FileManager.default.copyItem(at: fixture, to: folder.appendingPathComponent("chromium.har"))
        let apitest = try TestBinaries.url("apitest")
        let imported = try await runProcess(
            apitest, ["import", "har", "chromium.har", "-o", "chromium.yaml"], environment: ["NO_COLOR": "1"],
            currentDirectory: folder)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("wrote chromium.yaml: 9 tests"), "\(imported.stderr)")
        let suite = try String(contentsOf: folder.appendingPathComponent("chromium.yaml"), encoding: .utf8)
        #expect(suite.contains("1 entry of other types left out (image 1)"), "\(suite)")
        var environment = Self.secrets
        environment["NO_COLOR"] = "1"
        let run = try await runProcess(
            apitest, ["run", "chromium.yaml", "--jobs", "1", "--var", "origin=\(demo.baseURL)"],
            environment: environment, currentDirectory: folder)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)\n\(suite)")
        #expect(run.stdout.contains("9 passed"), "\(run.stdout)")
    }
}

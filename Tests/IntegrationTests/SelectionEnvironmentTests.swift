import Foundation
import Testing

/// Issue 37: `run --filter B` (and `--tag`, `--exclude-tag`, `--shard`, `list`, `load`) needs only the environment
/// variables of the tests it selects, with what they need of the suite (variables they use, the base URL,
/// `defaults`, `setup`, `teardown`); a selected test's unset variable is the located error it always was (exit 2),
/// and `validate` checks every test. The old code refused every command at load time (exit 2) whatever was selected.
@Suite struct SelectionEnvironmentTests {
    /// Names no environment sets.
    static let tokenVariable = "APITEST_TEST_UNSET_TOKEN_\(UUID().uuidString.prefix(8))"
    static let queryVariable = "APITEST_TEST_UNSET_QUERY_\(UUID().uuidString.prefix(8))"
    static let setupVariable = "APITEST_TEST_UNSET_SETUP_\(UUID().uuidString.prefix(8))"

    /// A folder with `env.yaml`: `token` (a variable of `tokenVariable`, used through `header`) needed by test
    /// "uses token", `queryVariable` by "uses query", nothing by "plain" (tagged `free`); and `other.yaml`, whose
    /// only test needs `queryVariable` too. With `withSetup`, `env.yaml`'s setup needs `setupVariable`.
    static func makeSuites(baseURL: String, withSetup: Bool = false) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let setup = withSetup ? "setup:\n  - request: {url: \"/health?s={{ env.\(setupVariable) }}\"}\n" : ""
        let suite = """
            name: Env
            baseURL: \(baseURL)
            variables:
              token: "{{ env.\(tokenVariable) }}"
              header: "Bearer {{ token }}"
            \(setup)tests:
              - name: uses token
                request: {url: /health, headers: {Authorization: "{{ header }}"}}
              - name: uses query
                request: {url: "/health?q={{ env.\(queryVariable) }}"}
              - name: plain
                tags: [free]
                request: {url: /health}
            """
        try suite.write(to: root.appendingPathComponent("env.yaml"), atomically: true, encoding: .utf8)
        let other = """
            name: Other
            baseURL: \(baseURL)
            tests:
              - {name: elsewhere, request: {url: "/health?q={{ env.\(queryVariable) }}"}}
            """
        try other.write(to: root.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    @Test func aFilterNeedsOnlyTheSelectedTestsVariables() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let root = try Self.makeSuites(baseURL: demo.baseURL)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path

        // The test that needs nothing runs, although other tests (and another file) need unset variables.
        for flags in [["--filter", "plain"], ["--tag", "free"], ["--filter", "^Env › plain$"]] {
            let run = try await apitest(["run", path] + flags)
            #expect(run.exitCode == 0, "\(flags): \(run.stderr)")
            #expect(run.stdout.contains("1 passed"), "\(flags): \(run.stdout)")
            #expect(!run.stderr.contains("is not set"), "\(flags): \(run.stderr)")
            let list = try await apitest(["list", path] + flags)
            #expect(list.exitCode == 0, "\(flags): \(list.stderr)")
            #expect(list.stdout.contains("Env › plain"), "\(flags): \(list.stdout)")
        }

        // A selected test's variable, through two suite variables: the located error, and only that one.
        let token = try await apitest(["run", path, "--filter", "uses token"])
        #expect(token.exitCode == 2, "\(token.stdout)\(token.stderr)")
        #expect(
            token.stderr.contains("env.yaml:4:"), "located at the variable that reads it: \(token.stderr)")
        #expect(token.stderr.contains("error: environment variable '\(Self.tokenVariable)' is not set"))
        #expect(!token.stderr.contains(Self.queryVariable), "\(token.stderr)")
        #expect(token.stderr.contains("1 error in 1 file; nothing was run."), "\(token.stderr)")

        let query = try await apitest(["run", path, "--filter", "uses query"])
        #expect(query.exitCode == 2)
        #expect(query.stderr.contains("env.yaml:10:"), "\(query.stderr)")
        #expect(query.stderr.contains("environment variable '\(Self.queryVariable)' is not set"))
        #expect(!query.stderr.contains(Self.tokenVariable), "\(query.stderr)")

        // `--exclude-tag` leaves two tests of env.yaml and the one of other.yaml: three errors in two files.
        let excluded = try await apitest(["run", path, "--exclude-tag", "free"])
        #expect(excluded.exitCode == 2)
        #expect(excluded.stderr.contains("3 errors in 2 files; nothing was run."), "\(excluded.stderr)")

        // `list` refuses a selection with an unset variable as `run` does.
        let list = try await apitest(["list", path, "--filter", "uses query"])
        #expect(list.exitCode == 2)
        #expect(list.stderr.contains("environment variable '\(Self.queryVariable)' is not set"))
    }

    /// Without a selection every test is selected: the errors of the old load, in the old words.
    @Test func runWithoutASelectionAndValidateCheckEveryTest() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        for command in [["run"], ["validate"], ["run", "--shard", "1/1"]] {
            let result = try await apitest(command + [root.appendingPathComponent("env.yaml").path])
            #expect(result.exitCode == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("environment variable '\(Self.tokenVariable)' is not set"), "\(command)")
            #expect(result.stderr.contains("environment variable '\(Self.queryVariable)' is not set"), "\(command)")
            #expect(result.stderr.contains("2 errors in 1 file; nothing was run."), "\(command): \(result.stderr)")
        }
        // `validate` checks every test whatever it is asked: it takes no selection.
        let validate = try await apitest(["validate", root.path])
        #expect(validate.exitCode == 2)
        #expect(validate.stderr.contains("3 errors in 2 files"), "\(validate.stderr)")
    }

    /// `setup` runs before any selected test: its variables are needed by every selection of the suite, and by
    /// none that leaves the suite out.
    @Test func setupIsNeededByEveryTestOfItsSuite() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9", withSetup: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = try await apitest(["list", root.path, "--filter", "plain"])
        #expect(plain.exitCode == 2)
        #expect(plain.stderr.contains("environment variable '\(Self.setupVariable)' is not set"), "\(plain.stderr)")
        #expect(!plain.stderr.contains(Self.tokenVariable), "\(plain.stderr)")
        let elsewhereOnly = try await apitest(
            ["list", root.appendingPathComponent("env.yaml").path, "--filter", "^Other"])
        #expect(elsewhereOnly.exitCode == 4, "nothing selected, no variable needed: \(elsewhereOnly.stderr)")
        #expect(!elsewhereOnly.stderr.contains("is not set"), "\(elsewhereOnly.stderr)")
    }
}

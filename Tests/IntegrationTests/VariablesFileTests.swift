import Foundation
import Testing

/// `--variables-file`: YAML and .env files, their precedence against `--var`, masking of .env values, and
/// located errors.
@Suite final class VariablesFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-vars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Each test's instance removes the folder it made.
    deinit { try? FileManager.default.removeItem(at: directory) }

    func write(_ name: String, _ text: String) throws -> String {
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    @Test func yamlAndDotenvFilesSetVariablesAndVarWins() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let secret = "s3cr3t-\(UUID().uuidString)"
        let suite = try write(
            "suite.yaml",
            """
            baseURL: http://127.0.0.1:{{ port }}
            variables: {who: suite, port: "1"}
            tests:
              - name: echo
                request:
                  method: POST
                  url: /echo
                  json: {who: "{{ who }}", token: "{{ token }}", quoted: "{{ quoted }}", plain: "{{ plain }}"}
                expect:
                  json:
                    $.json.who: cli
                    $.json.token: "{{ token }}"
                    $.json.quoted: "a \\"b\\"\\nc"
                    $.json.plain: value
                    $.json.nothing: {exists: true}
            """)
        let yaml = try write("vars.yaml", "port: \(demo.port)\nwho: yaml\n")
        let dotenv = try write(
            "local.env",
            """
            # secrets
            export token=\(secret)
            quoted="a \\"b\\"\\nc"
            plain=value # a comment
            """)
        let report = directory.appendingPathComponent("report.json").path
        let result = try await apitest([
            "run", suite, "--variables-file", yaml, "--variables-file", dotenv, "--var", "who=cli", "--verbose",
            "--report-json", report,
        ])
        // The only failure is the deliberate one; the values from the files reached the request.
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("$.json.nothing: expected to exist, got nothing"), "\(result.stdout)")
        #expect(!result.stdout.contains("$.json.who:"))
        #expect(!result.stdout.contains("$.json.token:"))
        #expect(!result.stdout.contains("$.json.quoted:"))
        // .env values are secrets: masked in the terminal and in reports.
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        #expect(try !String(contentsOfFile: report, encoding: .utf8).contains(secret))
        #expect(result.stdout.contains("•••••"))
    }

    @Test func badVariablesFilesAreLocatedErrors() async throws {
        let suite = try write("suite.yaml", "tests:\n  - {name: a, request: {url: 'http://127.0.0.1:9/'}}\n")
        let dotenv = try write("bad.env", "GOOD=1\nno equals here\n1bad=x\nQ=\"open\n")
        let yaml = try write("bad.yaml", "a: 1\nb: [1, 2]\n")
        let result = try await apitest([
            "validate", suite, "--variables-file", dotenv, "--variables-file", yaml, "--variables-file",
            directory.appendingPathComponent("missing.yaml").path,
        ])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("\(dotenv):2:1"))
        #expect(result.stderr.contains("expected NAME=value"))
        #expect(result.stderr.contains("\(dotenv):3:1"))
        #expect(result.stderr.contains("invalid variable name '1bad'"))
        #expect(result.stderr.contains("\(dotenv):4:3"))
        #expect(result.stderr.contains("a double-quoted value is not closed"))
        #expect(result.stderr.contains("\(yaml):2:4"))
        #expect(result.stderr.contains("variable 'b' must be a text, a number or a boolean"))
        #expect(result.stderr.contains("missing.yaml:1:1"))
        #expect(result.stderr.contains("nothing was run"))
    }

    @Test func aYAMLVariablesFileThatDoesNotParseShowsNoValue() async throws {
        let suite = try write("suite.yaml", "tests:\n  - {name: a, request: {url: 'http://127.0.0.1:9/'}}\n")
        // A syntax error, and a file that is not a map: neither excerpt may show a value of the file.
        let broken = try write("broken.yaml", "user: alice\npassword: [YamlPwEcho88zz\n")
        let list = try write("list.yaml", "- YamlListSecret77qq\n")
        for file in [broken, list] {
            let result = try await apitest(["validate", suite, "--variables-file", file])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains(file), "\(result.stderr)")
            for secret in ["YamlPwEcho88zz", "YamlListSecret77qq", "alice"] {
                #expect(!result.stderr.contains(secret), "\(result.stderr)")
                #expect(!result.stdout.contains(secret), "\(result.stdout)")
            }
        }
    }
}

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// No command writes over a file it reads (issue 35, section 2): a report, `--curl`, a merged report, `import -o`, a
/// generated suite or a redirected standard output that is an input (a suite, an included file, a variables file,
/// a report being merged, an import's source, ...) is a usage error (exit 2) before anything runs, and the input is
/// left as it was. Outputs that are devices, FIFOs or links are written through, never replaced; a command whose
/// product is standard output fails when it cannot write it.
@Suite final class OutputGuardTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-output-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Each test's instance removes the folder it made.
    deinit { try? FileManager.default.removeItem(at: directory) }

    // MARK: - Helpers

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A suite whose one test errors at once (connection refused on a closed port): a run that needs no server.
    func writeSuite(_ name: String = "suite.yaml", extra: String = "") throws -> String {
        try write(
            name,
            "baseURL: http://127.0.0.1:\(try closedPort())\n\(extra)tests:\n  - name: refused\n    request: {url: /}\n")
    }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(
            try TestBinaries.url("apitest"), arguments, currentDirectory: directory, timeout: .seconds(60))
    }

    /// apitest run by `/bin/sh` with `redirection` (`> /dev/full`, `>> suite.yaml`) after its arguments.
    func apitest(_ arguments: [String], redirecting redirection: String) async throws -> ProcessResult {
        try await runProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" \"$@\" \(redirection)", try TestBinaries.url("apitest").path] + arguments,
            currentDirectory: directory, timeout: .seconds(60))
    }

    /// Runs `arguments`, expects the usage error naming `output` and `input`, and `unchanged` files as they were.
    func expectRefused(
        _ arguments: [String], output: String, input: String, unchanged: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = unchanged.map { contents($0) }
        let result = try await apitest(arguments)
        #expect(result.exitCode == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(output), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(input), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("apitest never writes over a file it reads"), "\(result.stderr)",
            sourceLocation: sourceLocation)
        for (name, text) in zip(unchanged, before) {
            #expect(contents(name) == text, "\(name) changed", sourceLocation: sourceLocation)
        }
    }

    static func fileType(_ path: String, following: Bool = true) -> mode_t {
        var info = stat()
        let status = following ? stat(path, &info) : lstat(path, &info)
        return status == 0 ? info.st_mode & S_IFMT : 0
    }

    // MARK: - run and load

    @Test func aReportOrTheCurlFileOntoTheSuiteIsRefused() async throws {
        try writeSuite()
        for flag in ["--report-junit", "--report-tap", "--report-json", "--report-html", "--curl"] {
            try await expectRefused(
                ["run", "suite.yaml", flag, "suite.yaml"], output: "\(flag) 'suite.yaml'",
                input: "the suite 'suite.yaml'", unchanged: ["suite.yaml"])
        }
        try await expectRefused(
            ["load", "suite.yaml", "--vus", "1", "--duration", "1s", "--report-json", "suite.yaml"],
            output: "--report-json 'suite.yaml'", input: "the suite 'suite.yaml'", unchanged: ["suite.yaml"])
    }

    @Test func aReportOntoAnIncludedFileOrAVariablesFileIsRefused() async throws {
        try write("shared/settings.yaml", "variables:\n  shared: one\n")
        try writeSuite(extra: "include: shared/settings.yaml\n")
        try write("vars.env", "token=abc\n")
        try await expectRefused(
            ["run", "suite.yaml", "--report-tap", "shared/settings.yaml"],
            output: "--report-tap 'shared/settings.yaml'",
            input: "'shared/settings.yaml', which the suite 'suite.yaml' reads",
            unchanged: ["suite.yaml", "shared/settings.yaml"])
        try await expectRefused(
            ["run", "suite.yaml", "--variables-file", "vars.env", "--report-junit", "vars.env"],
            output: "--report-junit 'vars.env'", input: "the --variables-file file 'vars.env'", unchanged: ["vars.env"])
    }

    @Test func aReportOntoAFileASuiteNamesIsRefused() async throws {
        try write("body.json", #"{"a": 1}"#)
        try write("schema.json", #"{"type": "object"}"#)
        try write("rows.csv", "id\n1\n")
        try write(
            "named.yaml",
            """
            baseURL: http://127.0.0.1:\(try closedPort())
            tests:
              - name: each
                forEach: {file: rows.csv}
                request: {method: POST, url: /, bodyFile: body.json}
                expect: {schema: schema.json}

            """)
        for (flag, file) in [("--report-junit", "body.json"), ("--curl", "schema.json"), ("--report-json", "rows.csv")]
        {
            try await expectRefused(
                ["run", "named.yaml", flag, file], output: "\(flag) '\(file)'",
                input: "'\(file)', which the suites read",
                unchanged: ["named.yaml", file])
        }
    }

    @Test func anotherSpellingALinkOrAHardLinkOfAnInputIsRefused() async throws {
        try writeSuite()
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("report.xml"), withDestinationPath: "suite.yaml")
        #expect(link(path("suite.yaml"), path("hard.xml")) == 0)
        for output in ["sub/../suite.yaml", "./suite.yaml", path("suite.yaml"), "report.xml", "hard.xml"] {
            try await expectRefused(
                ["run", "suite.yaml", "--report-junit", output], output: "--report-junit '\(output)'",
                input: "the suite 'suite.yaml'", unchanged: ["suite.yaml"])
        }
        #expect(Self.fileType(path("report.xml"), following: false) == S_IFLNK)
    }

    @Test func aReportBesideTheInputsIsStillWritten() async throws {
        try writeSuite()
        let result = try await apitest(["run", "suite.yaml", "--report-junit", "junit.xml"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(contents("junit.xml")?.contains("<testsuites") == true)
    }

    // MARK: - merge

    @Test func aMergedReportOntoAReportBeingMergedIsRefused() async throws {
        try write("a.json", "{}\n")
        try write("b.json", "{}\n")
        try await expectRefused(
            ["merge", "a.json", "b.json", "--report-json", "a.json"], output: "--report-json 'a.json'",
            input: "the report being merged 'a.json'", unchanged: ["a.json", "b.json"])
        try await expectRefused(
            ["merge", "a.json", "b.json", "--report-html", "b.json"], output: "--report-html 'b.json'",
            input: "the report being merged 'b.json'", unchanged: ["a.json", "b.json"])
    }

    // MARK: - import and generate

    @Test func importOntoItsSourceIsRefusedEvenWithForce() async throws {
        try write("requests.sh", "curl http://127.0.0.1:9/users\n")
        try await expectRefused(
            ["import", "curl", "-f", "requests.sh", "-o", "requests.sh", "--force"], output: "-o 'requests.sh'",
            input: "the -f file 'requests.sh'", unchanged: ["requests.sh"])
        try write("recording.har", #"{"log": {"version": "1.2", "entries": []}}"#)
        try await expectRefused(
            ["import", "har", "recording.har", "-o", "./recording.har", "--force"], output: "-o './recording.har'",
            input: "the HAR file 'recording.har'", unchanged: ["recording.har"])
    }

    @Test func generateOntoItsDocumentIsRefusedEvenWithForce() async throws {
        let document = """
            openapi: 3.0.3
            info: {title: Pets, version: '1'}
            servers: [{url: 'http://127.0.0.1:9'}]
            paths:
              /pets:
                get:
                  tags: [pets]
                  operationId: listPets
                  responses:
                    '200': {description: ok}

            """
        try write("out/pets.yaml", document)
        try await expectRefused(
            ["generate", "openapi", "out/pets.yaml", "-o", "out", "--force"], output: "-o 'out/pets.yaml'",
            input: "the OpenAPI document 'out/pets.yaml'", unchanged: ["out/pets.yaml"])
    }

    // MARK: - Standard output

    @Test func standardOutputAppendedToAnInputIsRefused() async throws {
        try writeSuite()
        let before = contents("suite.yaml")
        for arguments in [["export", "curl", "suite.yaml"], ["list", "suite.yaml"], ["validate", "suite.yaml"]] {
            let result = try await apitest(arguments, redirecting: ">> suite.yaml")
            #expect(result.exitCode == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("standard output is the suite 'suite.yaml'"), "\(result.stderr)")
            #expect(contents("suite.yaml") == before)
        }
        try write("ca.pem", "not a certificate\n")
        let result = try await apitest(
            ["pin-check", "https://127.0.0.1:9/", "--ca-file", "ca.pem"], redirecting: ">> ca.pem")
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("standard output is the --ca-file file 'ca.pem'"), "\(result.stderr)")
        #expect(contents("ca.pem") == "not a certificate\n")
    }

    @Test func everyCommandWhoseProductIsStandardOutputFailsWhenItCannotWriteIt() async throws {
        try writeSuite()
        _ = try await apitest(["run", "suite.yaml", "--report-json", "report.json"])
        #expect(contents("report.json") != nil)
        try write("api.yaml", Self.petsDocument)
        let commands = [
            ["export", "curl", "suite.yaml"], ["list", "suite.yaml"], ["validate", "suite.yaml"],
            ["import", "curl", "curl http://127.0.0.1:9/users"], ["merge", "report.json"],
            ["generate", "openapi", "api.yaml", "-o", "generated"],
        ]
        for arguments in commands {
            let result = try await apitest(arguments, redirecting: "> /dev/full")
            // 3 for a command that did its work; merge keeps 1, the verdict of the run it merged (a failed test).
            let expected: Int32 = arguments[0] == "merge" ? 1 : 3
            #expect(result.exitCode == expected, "\(arguments): exit \(result.exitCode) \(result.stderr)")
            #expect(
                result.stderr.contains("cannot write to standard output: No space left on device"),
                "\(arguments): \(result.stderr)")
        }
    }

    // MARK: - Devices, FIFOs and links

    @Test func importWritesThroughAFIFOInsteadOfReplacingIt() async throws {
        let fifo = path("suite.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader, so that apitest's open for writing does not wait; the pipe's buffer holds the suite.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let result = try await apitest(["import", "curl", "curl http://127.0.0.1:9/users", "-o", fifo, "--force"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(Self.fileType(fifo, following: false) == S_IFIFO)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(reader, &buffer, buffer.count)
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).contains("tests:"))
    }

    @Test func importThroughASymbolicLinkReplacesItsTargetAndKeepsTheLink() async throws {
        try write("target.yaml", "old\n")
        try FileManager.default.createSymbolicLink(atPath: path("link.yaml"), withDestinationPath: "target.yaml")
        let result = try await apitest([
            "import", "curl", "curl http://127.0.0.1:9/users", "-o", "link.yaml", "--force",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(Self.fileType(path("link.yaml"), following: false) == S_IFLNK)
        #expect(contents("target.yaml")?.contains("tests:") == true)
    }

    @Test func importOntoALinkToDevFullFailsAndLeavesBoth() async throws {
        // Through a link in the test's own folder: a regression replaces the link, never the system's /dev/full.
        try FileManager.default.createSymbolicLink(atPath: path("full"), withDestinationPath: "/dev/full")
        let result = try await apitest(["import", "curl", "curl http://127.0.0.1:9/users", "-o", "full", "--force"])
        #expect(result.exitCode == 3, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(Self.fileType(path("full"), following: false) == S_IFLNK)
        #expect(Self.fileType("/dev/full") == S_IFCHR)
    }

    /// An OpenAPI document with one operation, tagged `pets`: `generate` writes `pets.yaml`.
    static let petsDocument = """
        openapi: 3.0.3
        info: {title: Pets, version: '1'}
        servers: [{url: 'http://127.0.0.1:9'}]
        paths:
          /pets:
            get:
              tags: [pets]
              responses:
                '200': {description: ok}

        """

    @Test func generateWritesThroughALinkedDevice() async throws {
        try write("api.yaml", Self.petsDocument)
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("out/pets.yaml"), withDestinationPath: "/dev/null")
        let result = try await apitest(["generate", "openapi", "api.yaml", "-o", "out", "--force"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(Self.fileType(path("out/pets.yaml"), following: false) == S_IFLNK)
        #expect(Self.fileType("/dev/null") == S_IFCHR)
    }
}

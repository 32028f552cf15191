import Foundation
import Testing

/// `apitest fuzz` runs that cannot pass silently: nothing sent is exit 4, bad options are refused before sending.
extension FuzzCLITests {
    /// Writes `text` as `name` in `folder`; its path.
    func document(_ text: String, named name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    // MARK: - Nothing sent

    @Test func aRunThatSendsNoRequestIsNoPass() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths: {}
            """, named: "empty.yaml", in: folder)
        let readOnly = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /health:
                get:
                  responses: {"200": {description: ok}}
            """, named: "read-only.yaml", in: folder)
        // Nothing listens on port 9, and none of these sends anything to it.
        let base = "http://127.0.0.1:9"
        let noOperation = try await fuzz([empty, "--base-url", base], in: folder)
        #expect(noOperation.exitCode == 4, "\(noOperation.stdout)\(noOperation.stderr)")
        #expect(noOperation.stderr.contains("no request was sent: the document has no operation"))
        #expect(!noOperation.stdout.contains("not exercised"))

        let noCreation = try await fuzz([readOnly, "--base-url", base, "--phases", "stateful"], in: folder)
        #expect(noCreation.exitCode == 4, "\(noCreation.stdout)\(noCreation.stderr)")
        #expect(noCreation.stderr.contains("--phases stateful made no request"), "\(noCreation.stderr)")

        let noTime = try await fuzz([Self.faultsDocument, "--base-url", base, "--duration", "0s"], in: folder)
        #expect(noTime.exitCode == 4, "\(noTime.stdout)\(noTime.stderr)")
        #expect(noTime.stderr.contains("before --duration ran out"), "\(noTime.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fuzz-findings").path))
    }
}

extension FuzzCLITests {
    // MARK: - all in a list

    @Test func allBesideOtherNamesIsEveryNameAndTheOthersAreStillChecked() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = "http://127.0.0.1:9/petstore"
        let unknown = try await fuzz([Self.faultsDocument, "--base-url", base, "--checks", "all,foo"], in: folder)
        #expect(unknown.exitCode == 2, "\(unknown.stdout)\(unknown.stderr)")
        #expect(unknown.stderr.contains("unknown name 'foo'"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("unknown name 'all'"), "\(unknown.stderr)")

        let everything = try await fuzz(
            [Self.faultsDocument, "--base-url", base, "--seed", "3", "--dry-run"], in: folder)
        #expect(everything.exitCode == 0, "\(everything.stderr)")
        for arguments in [["--checks", "not_a_server_error,all"], ["--phases", "all,examples"]] {
            let mixed = try await fuzz(
                [Self.faultsDocument, "--base-url", base, "--seed", "3", "--dry-run"] + arguments, in: folder)
            #expect(mixed.exitCode == 0, "\(arguments): \(mixed.stderr)")
            #expect(mixed.stdout == everything.stdout, "\(arguments)")
        }
    }
}

extension FuzzCLITests {
    // MARK: - Refused before sending

    @Test func aBaseURLWithAQueryAHeaderOnTwoLinesAndFindingsThatAreNoFolderAreRefusedBeforeSending() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = "http://127.0.0.1:9/petstore"
        let notAFolder = folder.appendingPathComponent("file.txt")
        try "x".write(to: notAFolder, atomically: true, encoding: .utf8)
        let cases: [(arguments: [String], message: String)] = [
            (["--base-url", "http://127.0.0.1:9/?q=1#frag"], "must have no query or fragment"),
            (["--base-url", "http://127.0.0.1:9/petstore#frag"], "must have no query or fragment"),
            (["--base-url", base, "-H", "X-A: a\r\nX-Injected: 1"], "on one line"),
            (["--base-url", base, "-H", "X-A: a\rX-Injected: 1"], "on one line"),
            (["--base-url", base, "--findings", "/dev/null"], "is not a folder"),
            (["--base-url", base, "--findings", notAFolder.path], "is not a folder"),
            (["--base-url", base, "--findings", notAFolder.path + "/below"], "cannot be made"),
        ]
        for (arguments, message) in cases {
            let result = try await fuzz([Self.faultsDocument, "--max-examples", "1"] + arguments, in: folder)
            #expect(result.exitCode == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("apitest fuzz:"), "\(arguments): sent\n\(result.stdout)")
        }
    }
}

extension FuzzCLITests {
    // MARK: - Help

    @Test func theHelpsExamplesExpandTheirVariables() async throws {
        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["fuzz", "--help"], environment: ["COLUMNS": "200"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#"--header "Authorization: Bearer $TOKEN""#), "\(result.stdout)")
        // A `$NAME` between single quotes is sent as it is written, never expanded by the shell.
        let examples = result.stdout.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("apitest fuzz ") }
        #expect(examples.count >= 3, "\(result.stdout)")
        for line in examples {
            let quoted = line.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            #expect(!quoted.contains { $0.offset % 2 == 1 && $0.element.contains("$") }, "\(line)")
        }
    }
}

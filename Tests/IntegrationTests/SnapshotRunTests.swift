import APITestTestSupport
import Foundation
import Testing

/// Issue 41 item 4, end to end: `expect.snapshot` run by the built apitest against the demo API, in a temporary
/// folder holding the suite. A missing snapshot is written (and said), an equal one passes, a different one fails
/// with the JSON difference, `--update-snapshots` rewrites it and counts it, `ignore` and `redact` hide volatile
/// values on both sides, secrets never reach the file, and with `CI=true` a missing snapshot fails the step. The old
/// binary refuses every suite here (`unknown key 'snapshot' in expect`).
@Suite final class SnapshotRunTests {
    /// The folder of this test's suite and snapshots, removed when the test ends.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// Not in CI, whatever the environment running the tests says.
    static let local = ["CI": ""]

    func write(_ yaml: String, as name: String = "users.yaml") throws -> String {
        let path = file(name)
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: file(relative), encoding: .utf8)
    }

    func usersSuite(_ demo: DemoServer) throws -> String {
        try write(
            """
            name: Users
            baseURL: \(demo.baseURL)
            tests:
              - name: alice
                request: {url: /api/users/1}
                expect: {status: 200, snapshot: user}
              - name: page
                request: {url: /html}
                expect: {snapshot: page}
            """)
    }

    // MARK: - Create, compare, update

    @Test func aMissingSnapshotIsWrittenThenComparedAndUpdated() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try usersSuite(demo)

        // First run: both written, said per step and counted.
        let first = try await runAPITest(["run", suite], environment: Self.local)
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("snapshot 'user' written: __snapshots__/users/user.json"), "\(first.stdout)")
        #expect(first.stdout.contains("snapshot 'page' written: __snapshots__/users/page.txt"), "\(first.stdout)")
        #expect(first.stderr.contains("apitest: 2 snapshots written"), "\(first.stderr)")
        let stored = try read("__snapshots__/users/user.json")
        let user = try #require(
            try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any])
        #expect(user["name"] as? String == "alice" && user["id"] as? Int == 1, "\(stored)")
        #expect(try read("__snapshots__/users/page.txt").contains("<html"))

        // Second run: equal, nothing written. Member order does not matter.
        try """
        {"role": "admin", "email": "alice@example.com", "name": "alice", "id": 1}
        """.write(toFile: file("__snapshots__/users/user.json"), atomically: true, encoding: .utf8)
        let second = try await runAPITest(["run", suite], environment: Self.local)
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
        #expect(!second.stdout.contains("written"), "\(second.stdout)")
        #expect(!second.stderr.contains("snapshots written"), "\(second.stderr)")

        // A different snapshot fails with the JSON difference; a different text with its line.
        try """
        {"id": 1, "name": "alicia", "email": "alice@example.com", "role": "admin"}
        """.write(toFile: file("__snapshots__/users/user.json"), atomically: true, encoding: .utf8)
        let page = try read("__snapshots__/users/page.txt")
        try ("changed first line\n" + page).write(
            toFile: file("__snapshots__/users/page.txt"), atomically: true, encoding: .utf8)
        let third = try await runAPITest(["run", suite], environment: Self.local)
        #expect(third.exitCode == 1, "\(third.stdout)\(third.stderr)")
        #expect(
            third.stdout.contains(#"snapshot 'user': differs at $.name: expected "alicia", got "alice""#),
            "\(third.stdout)")
        #expect(
            third.stdout.contains("__snapshots__/users/user.json; --update-snapshots rewrites it"), "\(third.stdout)")
        #expect(third.stdout.contains(#"snapshot 'page': differs at line 1: expected "changed first line""#))
        #expect(try read("__snapshots__/users/user.json").contains("alicia"), "a failing run writes nothing")

        // --update-snapshots rewrites both and says how many; the next run passes.
        let update = try await runAPITest(["run", suite, "--update-snapshots"], environment: Self.local)
        #expect(update.exitCode == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains("snapshot 'user' updated: __snapshots__/users/user.json"), "\(update.stdout)")
        #expect(update.stderr.contains("apitest: 2 snapshots written"), "\(update.stderr)")
        #expect(try read("__snapshots__/users/user.json").contains("\"alice\""))
        #expect(try read("__snapshots__/users/page.txt") == page)
        let again = try await runAPITest(["run", suite, "--update-snapshots"], environment: Self.local)
        #expect(again.exitCode == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("apitest: 0 snapshots written"), "\(again.stderr)")
    }

    // MARK: - CI

    @Test func inCIAMissingSnapshotFailsAndNothingIsWritten() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try usersSuite(demo)
        let run = try await runAPITest(["run", suite], environment: ["CI": "true"])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "snapshot 'user' is missing: __snapshots__/users/user.json is not written when CI is set"),
            "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file("__snapshots__/users/user.json")))
        #expect(!FileManager.default.fileExists(atPath: file("__snapshots__")))

        // --update-snapshots is asked for explicitly: it writes in CI too.
        let update = try await runAPITest(["run", suite, "--update-snapshots"], environment: ["CI": "true"])
        #expect(update.exitCode == 0, "\(update.stdout)\(update.stderr)")
        #expect(FileManager.default.fileExists(atPath: file("__snapshots__/users/user.json")))
        let compared = try await runAPITest(["run", suite], environment: ["CI": "true"])
        #expect(compared.exitCode == 0, "\(compared.stdout)\(compared.stderr)")
    }

    // MARK: - Volatile values and secrets

    /// The echo route returns the JSON body it was sent (`$.json`); its volatile members change between runs.
    func echoSuite(_ demo: DemoServer) throws -> String {
        try write(
            """
            name: Echo
            baseURL: \(demo.baseURL)
            tests:
              - name: echo
                request:
                  method: POST
                  url: /echo
                  json: {id: "{{ id }}", at: "{{ at }}", day: "{{ day }}", seq: "{{ seq }}", name: "{{ name }}", token: "{{ env.SNAPSHOT_TOKEN }}"}
                expect:
                  snapshot:
                    name: echo
                    ignore: [$.headers, $.body, $.bodySize, $.bodySHA256, $.json.seq]
                    redact: [uuid, datetime, date]
            """, as: "echo.yaml")
    }

    func echo(
        _ suite: String, id: String, at: String, day: String, seq: String, name: String = "n"
    ) async throws
        -> ProcessResult
    {
        var environment = Self.local
        environment["SNAPSHOT_TOKEN"] = "s3cr3t-snapshot-token"
        return try await runAPITest(
            [
                "run", suite, "--var", "id=\(id)", "--var", "at=\(at)", "--var", "day=\(day)", "--var", "seq=\(seq)",
                "--var", "name=\(name)",
            ],
            environment: environment)
    }

    @Test func ignoredPathsAndRedactedPatternsAreLeftOutOnBothSidesAndSecretsAreMasked() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try echoSuite(demo)
        let first = try await echo(
            suite, id: "0b8f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", at: "2026-11-29T15:44:11.123Z", day: "2026-11-29",
            seq: "1")
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        let stored = try read("__snapshots__/echo/echo.json")
        #expect(stored.contains(#""id" : "<uuid>""#) || stored.contains(#""id": "<uuid>""#), "\(stored)")
        #expect(stored.contains("<datetime>") && stored.contains("<date>"), "\(stored)")
        #expect(!stored.contains("0b8f2a4e") && !stored.contains("2026-11-29"), "\(stored)")
        #expect(!stored.contains("\"seq\"") && !stored.contains("\"headers\""), "\(stored)")
        #expect(!stored.contains("s3cr3t-snapshot-token"), "the secret is masked in the file: \(stored)")
        #expect(stored.contains("\"token\""), "\(stored)")

        // Other volatile values: still equal.
        let second = try await echo(
            suite, id: "FFFFFFFF-0000-4000-8000-123456789ABC", at: "2027-01-02T03:04:05+01:00", day: "2027-01-02",
            seq: "2")
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
        #expect(!second.stdout.contains("written"), "\(second.stdout)")

        // A real change is not hidden; a value that is not a UUID is not redacted.
        let third = try await echo(
            suite, id: "not-a-uuid", at: "2027-01-02T03:04:05Z", day: "2027-01-02", seq: "3", name: "m")
        #expect(third.exitCode == 1, "\(third.stdout)\(third.stderr)")
        #expect(
            third.stdout.contains(#"snapshot 'echo': differs at $.json.id: expected "<uuid>", got "not-a-uuid""#),
            "\(third.stdout)")
        #expect(!third.stdout.contains("s3cr3t-snapshot-token"), "\(third.stdout)")
    }

    // MARK: - Binary bodies

    /// A body that is not UTF-8 text (the demo's PNG image) is stored as its exact bytes and compared byte for byte.
    /// The old code decoded it as UTF-8, each invalid byte becoming U+FFFD: the stored file was no longer the body
    /// (not a PNG), and a snapshot differing from the body only in such a byte passed.
    @Test func aBinaryBodyIsStoredAndComparedByteForByte() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try write(
            """
            name: Binary
            baseURL: \(demo.baseURL)
            tests:
              - name: image
                request: {url: /image/png}
                expect: {status: 200, snapshot: image}
            """, as: "binary.yaml")
        let stored = URL(fileURLWithPath: file("__snapshots__/binary/image.txt"))
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

        let first = try await runAPITest(["run", suite], environment: Self.local)
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("snapshot 'image' written: __snapshots__/binary/image.txt"), "\(first.stdout)")
        // The file is the body itself: a PNG, its signature's first byte not turned into U+FFFD.
        var bytes = [UInt8](try Data(contentsOf: stored))
        #expect(Array(bytes.prefix(8)) == signature)
        let same = try await runAPITest(["run", suite], environment: Self.local)
        #expect(same.exitCode == 0, "\(same.stdout)\(same.stderr)")

        // The stored file's first byte changed into another byte that is not UTF-8 either (0x89 -> 0x8A).
        bytes[0] = 0x8A
        try Data(bytes).write(to: stored)
        let differs = try await runAPITest(["run", suite], environment: Self.local)
        #expect(differs.exitCode == 1, "\(differs.stdout)\(differs.stderr)")
        #expect(
            differs.stdout.contains("snapshot 'image': differs at byte 1 of \(bytes.count): expected 0x8A, got 0x89"),
            "\(differs.stdout)")

        let update = try await runAPITest(["run", suite, "--update-snapshots"], environment: Self.local)
        #expect(update.exitCode == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stderr.contains("apitest: 1 snapshot written"), "\(update.stderr)")
        #expect(Array(try Data(contentsOf: stored).prefix(8)) == signature)
    }

    // MARK: - Refusals

    @Test func aSnapshotFolderThatIsASymbolicLinkIsNotWrittenThrough() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try usersSuite(demo)
        let elsewhere = file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file("__snapshots__"), withDestinationPath: elsewhere)
        let run = try await runAPITest(["run", suite], environment: Self.local)
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("snapshot 'user' could not be written: __snapshots__ is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}

import Foundation
import Testing

/// Issue 12 item 11: the response size limit is a setting (`defaults.maxResponseSize`, `--max-response-size`,
/// 64 MiB by default, 0 for none) named in its error, and bodies that no check reads are counted and hashed as they
/// stream, so `bodySize` and `sha256` checks work on bodies far larger than the limit in constant memory.
@Suite(.serialized) struct ResponseSizeTests {
    /// A 200 MiB streamed body (chunked, no Content-Length) checked for size and SHA-256 passes, with the apitest
    /// process's peak RSS far below the body's size.
    @Test func aHugeBodyIsCheckedForSizeAndDigestInConstantMemory() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let size = 200 << 20
        let url = "\(demo.baseURL)/stream-bytes/\(size)?seed=7"
        // The expected digest, from curl and sha256sum: independent of apitest.
        let digest = try await runProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "curl -sS '\(url)' | sha256sum"], timeout: .seconds(120))
        let expected = try #require(digest.stdout.split(separator: " ").first.map(String.init))
        #expect(expected.count == 64)
        let file = try writeTemporarySuite(
            """
            tests:
              - name: 200 MiB
                request: {url: "\(url)"}
                expect:
                  bodySize: \(size)
                  sha256: \(expected)
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try await runAPITestMeasured(["run", file.path])
        #expect(run.result.exitCode == 0, "\(run.result.stdout)\(run.result.stderr)")
        #expect(run.result.stdout.contains("✔ suite › 200 MiB"))
        #expect(run.maxResidentBytes < 80 << 20, "peak RSS \(run.maxResidentBytes) bytes for a \(size)-byte body")
    }

    /// A body a check reads is kept and limited; the error names the limit and both settings.
    @Test func aBodyOverTheLimitNamesTheSettings() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: read
                request: {url: "/drip?numbytes=5000&duration=0"}
                expect:
                  body: {contains: "*****"}
              - name: only the size
                request: {url: /bytes/5000}
                expect:
                  bodySize: 5000
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let small = try await runAPITest(["run", file.path, "--max-response-size", "4KiB", "--jobs", "1"])
        #expect(small.exitCode == 1, "\(small.stdout)\(small.stderr)")
        #expect(
            small.stdout.contains(
                "the response body is larger than the limit of 4 KiB (4096 bytes); raise it with "
                    + "'defaults: {maxResponseSize: 200MB}' in the suite or '--max-response-size 200MB' on the "
                    + "command line (0 for no limit)"), "\(small.stdout)")
        #expect(small.stdout.contains("✔ suite › only the size"), "a body no check reads is not limited")
        // 0 is no limit; a larger limit passes.
        for size in ["0", "5000", "1MB"] {
            let result = try await runAPITest(["run", file.path, "--max-response-size", size])
            #expect(result.exitCode == 0, "--max-response-size \(size): \(result.stdout)\(result.stderr)")
        }
        // The default is 64 MiB: 5000 bytes pass without the flag.
        #expect(try await runAPITest(["run", file.path]).exitCode == 0)
    }

    /// A suite's `defaults.maxResponseSize` wins over the command line's.
    @Test func theSuiteSettingWinsOverTheCommandLine() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(demo.baseURL)
            defaults: {maxResponseSize: 1KB}
            tests:
              - name: read
                request: {url: "/drip?numbytes=2000&duration=0"}
                expect:
                  assert:
                    - {regex: '[*]+', exists: true}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path, "--max-response-size", "0"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the response body is larger than the limit of 1 KB (1000 bytes)"))
    }
}

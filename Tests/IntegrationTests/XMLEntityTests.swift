import Foundation
import Testing

/// Issue 12 item 3: an XML response whose one internal entity is referenced 20,000 times (1 MB on the wire, 1 GB
/// expanded) fails its XPath checks with a message naming the entity and the limit, in bounded memory; the value is
/// never an empty string that `isEmpty` or `lessThan` would take.
@Suite struct XMLEntityTests {
    @Test func anEntityBombFailsItsChecksInBoundedMemory() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: entity bomb
                request: {url: "/entities?n=20000"}
                expect:
                  xml:
                    /r/v: {isEmpty: true}
                  assert:
                    - {xpath: 'string-length(/r/v)', lessThan: 10}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try await runAPITestMeasured(["run", file.path])
        let stdout = run.result.stdout
        #expect(run.result.exitCode == 1, "\(stdout)\(run.result.stderr)")
        #expect(stdout.contains("✘ suite › entity bomb"), "\(stdout)")
        #expect(stdout.contains("entity 'lol' expands past the entity-amplification limit"), "\(stdout)")
        #expect(!stdout.contains("✔"))
        // The expansion would be 1 GB; the run stays far below it.
        #expect(run.maxResidentBytes < 150 * 1024 * 1024, "peak RSS \(run.maxResidentBytes) bytes")
    }
}

import Foundation
import Testing

/// `apitest import har -o` end to end against the demo's `/echo`: a body recorded one code point per byte (as
/// mitmproxy writes a binary one) is written beside the suite and sent byte for byte, and a recorded header holding
/// placeholder syntax is sent as recorded, not as the environment variable it names.
@Suite struct HARImportDataTests {
    /// PNG's signature, NUL, C1 bytes and 0xFF.
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x80, 0x9F, 0xC3, 0x28, 0xFF]

    /// A HAR of one POST to `url` with the bytes as latin-1 text and a planted header.
    static func har(_ url: String) throws -> Data {
        let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        let entry: [String: Any] = [
            "_resourceType": "fetch",
            "request": [
                "method": "POST", "url": url,
                "headers": [
                    ["name": "Content-Type", "value": "image/png"],
                    ["name": "X-Note", "value": "{{ env.AWS_SECRET_ACCESS_KEY }}"],
                ],
                "postData": ["mimeType": "image/png", "text": latin1],
            ],
            "response": ["status": 200, "content": ["mimeType": "application/json"]],
        ]
        return try JSONSerialization.data(withJSONObject: ["log": ["entries": [entry]]])
    }

    @Test func binaryBodiesAndPlantedPlaceholdersAreSentAsRecorded() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.har("\(demo.baseURL)/echo/upload").write(to: folder.appendingPathComponent("rec.har"))
        let apitest = try TestBinaries.url("apitest")

        let imported = try await runProcess(
            apitest, ["import", "har", "rec.har", "-o", "rec.yaml"], environment: ["NO_COLOR": "1"],
            currentDirectory: folder)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("wrote \(folder.path)/rec.bodies/entry-1.bin"), "\(imported.stderr)")
        let written = try Data(contentsOf: folder.appendingPathComponent("rec.bodies/entry-1.bin"))
        #expect(Array(written) == Self.bytes)

        // What the echo must have received: the bytes (not UTF-8, so given in base64) and the header's text.
        var suite = try String(contentsOf: folder.appendingPathComponent("rec.yaml"), encoding: .utf8)
        let expect = "    expect:\n      status: 200\n"
        #expect(suite.contains(expect), "\(suite)")
        let checks =
            "      json:\n        $.bodyBase64: \"\(Data(Self.bytes).base64EncodedString())\"\n"
            + #"      body: {contains: "{{ '{' }}{ env.AWS_SECRET_ACCESS_KEY }}"}"# + "\n"
        suite = suite.replacingOccurrences(of: expect, with: expect + checks)
        try suite.write(to: folder.appendingPathComponent("rec.yaml"), atomically: true, encoding: .utf8)

        let run = try await runProcess(
            apitest, ["run", "rec.yaml", "--var", "origin=\(demo.baseURL)"],
            environment: ["NO_COLOR": "1", "AWS_SECRET_ACCESS_KEY": "leaked-secret"], currentDirectory: folder)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)\n\(suite)")
        #expect(run.stdout.contains("1 passed"), "\(run.stdout)")

        // Into standard output there is no folder for the body: it is left out, and a note says so.
        let piped = try await runProcess(
            apitest, ["import", "har", "rec.har"], environment: ["NO_COLOR": "1"], currentDirectory: folder)
        #expect(piped.exitCode == 0)
        #expect(piped.stderr.contains("note: entry 1: the body is 14 bytes that are not text (image/png)"))
    }
}

import APITestHTTP
import APITestResults
import APITestRunner
import APITestSuite
import APITestTestSupport
import Foundation
import Testing

@testable import APITestLoad

/// The load runner against a scripted transport: what it adds up from the iterations it runs.
@Suite struct LoadRunnerTests {
    @Test func bytesSentCountFileAndMultipartUploadsAsTheTransportSentThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadrunner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 7, count: 1_000).write(to: folder.appendingPathComponent("blob.bin"))
        let yaml = """
            tests:
              - name: file
                request: {method: PUT, url: 'http://h.test/file', bodyFile: blob.bin}
              - name: form
                request:
                  method: POST
                  url: 'http://h.test/form'
                  multipart:
                    - {name: caption, value: hello}
                    - {name: blob, file: blob.bin}
              - name: data
                request: {method: POST, url: 'http://h.test/data', body: '12345'}

            """
        let suite = try SuiteLoader(environment: [:]).load(
            source: yaml, file: folder.appendingPathComponent("uploads.yaml").path)
        // What libcurl would count for the bodies it reads as it sends them; a body in memory counts its own size.
        let transport = ScriptedTransport { request, _ in
            var response = ScriptedTransport.response(to: request)
            switch request.body {
            case .file: response.bytesUploaded = 1_000
            case .multipart: response.bytesUploaded = 1_234
            case .none, .data: break
            }
            return response
        }
        let options = LoadOptions(
            model: .open(LoadSchedule(rate: 120, duration: .milliseconds(100))), maxInFlight: 4, run: RunOptions())
        let result = await LoadRunner(transport: transport, options: options).run([suite])
        let completed = result.tests.map(\.counts.completed)
        #expect(result.counts.completed == 12 && result.counts.passed == 12, "\(result.counts)")
        #expect(completed.allSatisfy { $0 > 0 }, "\(completed)")
        #expect(result.bytesSent == Int64(completed[0] * 1_000 + completed[1] * 1_234 + completed[2] * 5))
    }
}

import APITestHTTP
import APITestJSON
import APITestSupport
import APITestTestSupport
import Foundation
import Testing

/// Multipart uploads streamed from disk, checked by the demo API's parser and by Python's independent one.
@Suite(.serialized) final class MultipartUploadTests {
    let demo: DemoServer
    let faults: FaultServer
    let session = SessionManager()
    let directory: URL

    init() async throws {
        demo = try await DemoServer.start()
        faults = try FaultServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        session.shutdown()
        demo.stop()
        faults.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The files of every kind the issue names: empty, one byte, every byte value, a name with spaces and non-ASCII.
    func makeFiles() throws -> [(name: String, url: URL)] {
        let files: [(String, [UInt8])] = [
            ("empty.bin", []),
            ("one.txt", [0x41]),
            ("all-bytes.dat", (0..<4096).map { UInt8(truncatingIfNeeded: $0) }),
            ("a name with spaces and ünïcødé.png", (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
        ]
        return try files.map { name, bytes in
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return (name, url)
        }
    }

    func sha256(_ url: URL) async throws -> String {
        let result = try await runProcess(try TestBinaries.tool("sha256sum"), [url.path])
        return String(result.stdout.prefix(64))
    }

    func form(_ files: [(name: String, url: URL)]) -> MultipartFormData {
        var form = MultipartFormData()
        form.append(value: "at the beach", name: "caption")
        for (index, file) in files.enumerated() { form.append(fileAt: file.url.path, name: "file\(index)") }
        form.append(data: Data("inline".utf8), name: "inline", filename: "inline.json")
        return form
    }

    @Test func theDemoSeesEveryPartAsOnDisk() async throws {
        let files = try makeFiles()
        let form = form(files)
        let sent = try RequestSerializer().request(method: "POST", url: demo.baseURL + "/echo", body: .multipart(form))
        #expect(sent.headers["Content-Type"] == form.contentType)
        let response = try await session.perform(sent)
        #expect(response.statusCode == 200)
        let echo = try JSONParser.parse(response.body)
        let parts = try #require(echo["multipart"]?.arrayValue)
        #expect(parts.count == files.count + 2)
        #expect(parts[0]["name"] == "caption")
        #expect(parts[0]["filename"] == .null)
        for (index, file) in files.enumerated() {
            let part = parts[index + 1]
            #expect(part["name"] == .string("file\(index)"))
            #expect(part["filename"] == .string(file.name))
            #expect(part["contentType"] == .string(MIMEType.forPath(file.name)))
            let size = try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? Int
            #expect(part["size"] == .integer(Int64(size ?? -1)))
            #expect(part["sha256"] == .string(try await sha256(file.url)))
        }
        #expect(parts.last?["contentType"] == "application/json")
        #expect(response.bytesUploaded == (try Int64(form.encoded().count)))
    }

    @Test func pythonsParserAgreesWithTheRawBody() async throws {
        let files = try makeFiles()
        let form = form(files)
        let saved = directory.appendingPathComponent("raw-body")
        let request = try RequestSerializer().request(
            method: "POST", url: faults.baseURL + "/save?to=\(saved.path)", body: .multipart(form))
        let response = try await session.perform(request)
        #expect(response.statusCode == 200)
        let checker = FaultServer.scriptURL.deletingLastPathComponent().appendingPathComponent("check_multipart.py")
        let result = try await runProcess(try TestBinaries.tool("python3"), [checker.path, saved.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let parts = try #require(try JSONParser.parse(result.stdout).arrayValue)
        #expect(parts.count == files.count + 2)
        #expect(parts.first?["name"] == "caption")
        for (index, file) in files.enumerated() {
            #expect(parts[index + 1]["filename"] == .string(file.name))
            #expect(parts[index + 1]["sha256"] == .string(try await sha256(file.url)))
        }
        // The announced length is exactly what arrived.
        let size = try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int
        #expect(Int64(size ?? -1) == response.bytesUploaded)
    }

    @Test(arguments: ["data", "file", "multipart"])
    func bodiesAreSentAgainAfterA307(kind: String) async throws {
        let files = try makeFiles()
        let saved = directory.appendingPathComponent("after-307-\(kind)")
        let body: RequestSerializer.Body
        switch kind {
        case "data": body = .json(["resent": true])
        case "file": body = .file(path: files[2].url.path, contentType: "application/octet-stream")
        default: body = .multipart(form(files))
        }
        let request = try RequestSerializer().request(
            method: "POST", url: faults.baseURL + "/redirect307?to=\(saved.path)", body: body)
        let response = try await session.perform(request)
        #expect(response.statusCode == 200)
        #expect(response.redirectCount == 1)
        let arrived = try Data(contentsOf: saved)
        switch body {
        case .json: #expect(arrived == Data(#"{"resent":true}"#.utf8))
        case .file: #expect(arrived == (try Data(contentsOf: files[2].url)))
        case .multipart(let form): #expect(arrived == (try form.encoded()))
        default: break
        }
    }

    @Test func aFileThatChangesDuringTheUploadFailsTheTransfer() async throws {
        let big = directory.appendingPathComponent("big.bin")
        try Data(count: 8 * 1024 * 1024).write(to: big)
        var form = MultipartFormData()
        form.append(fileAt: big.path, name: "big")
        let request = try RequestSerializer().request(
            method: "POST", url: faults.baseURL + "/slow-sink", body: .multipart(form))
        let upload = Task { [session] in try await session.perform(request) }
        // Truncate once the upload has started (the sink has its request line; it then reads 16 KiB every 5 ms,
        // so 8 MiB takes seconds), on a thread of its own: a fixed sleep on a busy pool can resume late, or the upload
        // task can start after the truncation, and then the file is read whole at its new size.
        let faults = self.faults
        try await onOwnThread {
            guard
                pollUntil(timeout: .seconds(20), { faults.receivedRequestLines.contains { $0.contains("/slow-sink") } })
            else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the upload never began"]) }
            try Data(count: 1024).write(to: big) // truncate while the slow sink is still reading
        }
        let result = await upload.result
        guard case .failure(let error as HTTPError) = result else {
            Issue.record("expected a failed upload, got \(result)")
            return
        }
        #expect(error.reason == .bodyFileChanged)
        #expect(error.message.contains("shrank during the upload"))
    }

    @Test func progressIsReported() async throws {
        // Larger than loopback socket buffers, so the sink's pace shows in what has been sent.
        let size: Int64 = 48 * 1024 * 1024
        let big = directory.appendingPathComponent("progress.bin")
        try Data(count: Int(size)).write(to: big)
        let seen = SyncBox<[(sent: Int64, total: Int64)]>([])
        var request = HTTPRequest(
            method: "POST", url: faults.baseURL + "/slow-sink?chunk=262144", body: .file(path: big.path))
        request.uploadProgress = { sent, total in seen.withLock { $0.append((sent, total)) } }
        _ = try await session.perform(request)
        let values = seen.withLock { $0 }
        #expect(values.count >= 3, "progress reported \(values.count) times")
        #expect(values.map(\.sent) == values.map(\.sent).sorted())
        #expect(values.allSatisfy { $0.total == size })
        #expect(values.last?.sent == size)
    }
}

import APITestSupport
import APITestTestSupport
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct MultipartFormDataTests {
    func temporaryFile(_ bytes: [UInt8], name: String = "part.bin") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test func encodesPartsExactly() throws {
        let file = try temporaryFile(Array("file body".utf8), name: "notes.txt")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartFormData(boundary: "XyZ")
        form.append(value: "at the beach", name: "caption")
        form.append(data: Data([0, 1, 2]), name: "blob", filename: "b.bin")
        form.append(fileAt: file.path, name: "doc", headers: ["X-Part": "1"])
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nat the beach\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{2}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\n"
            + "Content-Type: text/plain\r\nX-Part: 1\r\n\r\nfile body\r\n--XyZ--\r\n"
        #expect(try form.encoded() == Data(expected.utf8))
        #expect(form.contentType == "multipart/form-data; boundary=XyZ")
    }

    @Test func namesAreEscapedTheWHATWGWayAndNonASCIIStaysUTF8() {
        #expect(MultipartFormData.escape("a\"b\r\nc") == "a%22b%0D%0Ac")
        let part = MultipartFormData.Part(name: "f", filename: "ünï cødé.txt", content: .data(Data()))
        #expect(MultipartFormData.header(of: part, boundary: "B").contains("filename=\"ünï cødé.txt\""))
    }

    @Test func streamLengthIsExactAndMatchesTheEncoding() throws {
        let empty = try temporaryFile([], name: "empty.dat")
        defer { try? FileManager.default.removeItem(at: empty.deletingLastPathComponent()) }
        let big = try temporaryFile((0..<200_000).map { UInt8(truncatingIfNeeded: $0) }, name: "big.dat")
        defer { try? FileManager.default.removeItem(at: big.deletingLastPathComponent()) }
        var form = MultipartFormData()
        form.append(fileAt: empty.path, name: "empty")
        form.append(fileAt: big.path, name: "big")
        form.append(value: "v", name: "k")
        let stream = try #require(try BodyStream.make(for: .multipart(form)))
        var collected = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024 + 3)
        while true {
            let count = try #require(buffer.withUnsafeMutableBytes { stream.read(into: $0) })
            if count == 0 { break }
            collected.append(contentsOf: buffer[0..<count])
        }
        #expect(Int64(collected.count) == stream.length)
        #expect(collected == (try form.encoded()))
        #expect(stream.sent == stream.length)
    }

    @Test func boundariesAreRandom() {
        let a = MultipartFormData.randomBoundary()
        let b = MultipartFormData.randomBoundary()
        #expect(a != b)
        #expect(a.hasPrefix("apitest-") && a.count == 40)
    }

    @Test func contentTypesByExtension() {
        #expect(MIMEType.forPath("/x/y/Photo.PNG") == "image/png")
        #expect(MIMEType.forPath("a.tar.gz") == "application/gzip")
        #expect(MIMEType.forPath("noext") == "application/octet-stream")
        #expect(MIMEType.forPath(".bashrc") == "application/octet-stream")
        #expect(MIMEType.forPath("data.json") == "application/json")
    }

    @Test func aFileThatShrinksOrGrowsFailsTheStream() throws {
        let file = try temporaryFile([UInt8](repeating: 7, count: 100_000))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let shrinking = try #require(try BodyStream.make(for: .file(path: file.path)))
        try Data(count: 10).write(to: file)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let first = buffer.withUnsafeMutableBytes { shrinking.read(into: $0) }
        #expect(first == nil)
        #expect(shrinking.failure?.reason == .bodyFileChanged)
        #expect(shrinking.failure?.message.contains("shrank during the upload: 100000 bytes announced") == true)

        try Data(count: 100).write(to: file)
        let growing = try #require(try BodyStream.make(for: .file(path: file.path)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 50))
        try handle.close()
        let result = buffer.withUnsafeMutableBytes { growing.read(into: $0) }
        #expect(result == nil)
        #expect(
            growing.failure?.message.contains("changed size during the upload: 100 bytes announced, 150 now") == true)
    }

    @Test func missingFilesAndDirectoriesAreClearErrors() throws {
        var form = MultipartFormData()
        form.append(fileAt: "/nonexistent/file.png", name: "f")
        #expect(throws: HTTPError.self) { try BodyStream.make(for: .multipart(form)) }
        #expect(throws: HTTPError.self) { try BodyStream.make(for: .file(path: NSTemporaryDirectory())) }
    }
}

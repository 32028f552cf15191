import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// A body file is checked as every file apitest reads (`ReadableFile`) before it is opened: a FIFO, a folder or a
/// missing file fails the transfer with `bodyFileUnreadable` instead of blocking in open(2).
@Suite struct BodyFileCheckTests {
    @Test func aFIFOAFolderAndAMissingFileAreRefusedWithoutOpeningThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bodyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [
            (fifo, "body file '\(fifo)' is not a regular file"),
            (folder.path, "body file '\(folder.path)' is a directory, not a file"),
            (folder.path + "/nope", "body file '\(folder.path)/nope' does not exist"),
        ]
        for (path, message) in cases {
            #expect(throws: HTTPError.self) {
                do {
                    _ = try BodyStream.fileSize(path)
                } catch let error as HTTPError {
                    #expect(error.reason == .bodyFileUnreadable)
                    #expect(error.message == message)
                    throw error
                }
            }
        }
        let file = folder.appendingPathComponent("body.bin")
        try Data(count: 1234).write(to: file)
        #expect(try BodyStream.fileSize(file.path) == 1234)
    }
}

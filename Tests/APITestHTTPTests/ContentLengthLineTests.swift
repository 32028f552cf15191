import Foundation
import Testing

@testable import APITestHTTP

/// The `Content-Length` a response announces, read from its raw field line so that a large kept body can reserve
/// its buffer once instead of growing by copies.
@Suite struct ContentLengthLineTests {
    private func length(_ line: String) -> Int? {
        Array(line.utf8).withUnsafeBytes { TaskDelegate.contentLength(of: $0) }
    }

    @Test func readsTheDecimalValueInAnyCaseOfTheName() {
        #expect(length("Content-Length: 1234") == 1234)
        #expect(length("content-length:0") == 0)
        #expect(length("CONTENT-LENGTH: \t 65536 ") == 65536)
    }

    @Test func anotherFieldOrAValueThatIsNotAPlainNumberIsNone() {
        #expect(length("Content-Type: application/json") == nil)
        #expect(length("Content-Length:") == nil)
        #expect(length("Content-Length: 12a") == nil)
        #expect(length("Content-Length: -5") == nil)
        #expect(length("Content-Length: 1, 1") == nil)
        #expect(length("Content-Length: 99999999999999999999999") == nil, "more digits than an Int holds")
        #expect(length("Content-Lengthy: 12") == nil)
        // Only letters compare across case: a carriage return is not the name's `-`, nor `SUB` its `:`.
        #expect(length("Content\rLength: 12") == nil)
        #expect(length("Content-Length\u{1A} 12") == nil)
    }

    /// The delegate keeps the latest response's announcement: a redirect's or an interim response's is dropped
    /// when the next status line starts a response.
    @Test func eachResponseStartsWithoutAnAnnouncedLength() async throws {
        let error = try? await withTransferContinuation { continuation in
            let delegate = TaskDelegate(
                id: 1, request: HTTPRequest(url: "http://127.0.0.1:1/"), maxBodySize: 1 << 20,
                continuation: continuation)
            guard case .startTransfer = delegate.transfer.start() else {
                Issue.record("the transfer did not start")
                return continuation.resume(throwing: CancellationError())
            }
            func header(_ line: String) { Array(line.utf8).withUnsafeBytes { delegate.receiveHeaderLine($0) } }
            header("HTTP/1.1 301 Moved Permanently\r\n")
            header("Content-Length: 300000\r\n")
            #expect(delegate.announcedLength == 300_000)
            header("HTTP/1.1 200 OK\r\n")
            #expect(delegate.announcedLength == nil)
            header("content-length: 5\r\n")
            #expect(delegate.announcedLength == 5)
            let accepted = Array("hello".utf8).withUnsafeBytes { delegate.receiveBody($0) }
            #expect(accepted)
            #expect(delegate.body == Data("hello".utf8))
            continuation.resume(throwing: CancellationError())
        }
        #expect(error == nil)
    }
}

import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// Every option set on a transfer is checked: one libcurl refuses fails the transfer, naming the option, before
/// anything is sent (rather than running it with a setting other than the one asked for).
@Suite struct CurlOptionCheckTests {
    @Test func aRefusedOptionFailsTheTransferNamingIt() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        // libcurl refuses string options longer than CURL_MAX_INPUT_LENGTH (8,000,000 bytes).
        let url = "http://127.0.0.1:9/" + String(repeating: "a", count: 8_000_001)
        await #expect(throws: HTTPError.self) {
            do {
                _ = try await session.perform(HTTPRequest(url: url))
            } catch let error as HTTPError {
                #expect(error.reason == .invalidRequest)
                #expect(error.message.hasPrefix("libcurl refused CURLOPT_URL: "), "\(error.message)")
                throw error
            }
        }
        // The handle went back to the pool clean: the next transfer on it is configured from scratch.
        await #expect(throws: HTTPError.self) {
            do {
                _ = try await session.perform(HTTPRequest(url: "http://127.0.0.1:9/"))
            } catch let error as HTTPError {
                #expect(error.reason != .invalidRequest, "\(error)")
                throw error
            }
        }
    }
}

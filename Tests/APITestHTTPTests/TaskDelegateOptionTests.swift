import CCurlShim
import Foundation
import Testing

@testable import APITestHTTP

/// The delegate passes only refused options on to its state machine: a transfer whose options were all taken
/// starts, and one with a refusal fails unsent, naming the first one refused.
@Suite struct TaskDelegateOptionTests {
    private func started(after codes: [(String, CURLcode)]) async -> (started: Bool, error: HTTPError?) {
        var started = false
        do {
            _ = try await withTransferContinuation { continuation in
                let delegate = TaskDelegate(
                    id: 1, request: HTTPRequest(url: "http://127.0.0.1:1/"), maxBodySize: 1 << 20,
                    continuation: continuation)
                for (name, code) in codes { delegate.check(name, code) }
                switch delegate.transfer.start() {
                case .startTransfer:
                    started = true
                    continuation.resume(throwing: CancellationError())
                case .fail(let caller, let error):
                    caller.resume(throwing: error)
                default:
                    Issue.record("start() gave another action")
                    continuation.resume(throwing: CancellationError())
                }
            }
        } catch let error as HTTPError {
            return (started, error)
        } catch {}
        return (started, nil)
    }

    @Test func takenOptionsLetTheTransferStart() async {
        let outcome = await started(after: [("CURLOPT_URL", CURLE_OK), ("CURLOPT_TIMEOUT_MS", CURLE_OK)])
        #expect(outcome.started)
        #expect(outcome.error == nil)
    }

    @Test func theFirstRefusedOptionFailsTheTransferUnsent() async throws {
        let outcome = await started(after: [
            ("CURLOPT_URL", CURLE_OK), ("CURLOPT_SSL_VERIFYPEER", CURLE_UNKNOWN_OPTION),
            ("CURLOPT_NOSIGNAL", CURLE_OK), ("CURLOPT_CAINFO", CURLE_BAD_FUNCTION_ARGUMENT),
        ])
        #expect(!outcome.started)
        let error = try #require(outcome.error)
        #expect(error.message.hasPrefix("libcurl refused CURLOPT_SSL_VERIFYPEER: "), "\(error.message)")
        #expect(error.curlCode == Int(CURLE_UNKNOWN_OPTION.rawValue))
    }
}

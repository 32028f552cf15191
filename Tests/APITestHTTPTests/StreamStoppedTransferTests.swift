import CCurlShim
import Testing

@testable import APITestHTTP

/// A streamed body's reader that stops the transfer (`until` of `expect.events`) makes libcurl end with a write
/// error; the transfer still succeeds with what arrived, unless a real failure was recorded too.
@Suite struct StreamStoppedTransferTests {
    typealias Machine = TransferStateMachineTests.Machine

    @Test func aWriteErrorAfterTheReaderStoppedBuildsTheResponse() {
        var machine = TransferStateMachineTests.running()
        machine.responseStarted()
        machine.receivedBody()
        machine.streamStopped()
        #expect(machine.curlDone(CurlCompletion(code: CURLE_WRITE_ERROR)).isBuildResponse)
    }

    @Test func aWriteErrorWithoutTheReaderIsAFailure() {
        var machine = TransferStateMachineTests.running()
        machine.responseStarted()
        machine.receivedBody()
        #expect(TransferStateMachineTests.failure(machine.curlDone(CurlCompletion(code: CURLE_WRITE_ERROR))) != nil)
    }

    @Test func anotherFailureStillDecides() {
        let error = TransferStateMachineTests.ending(CurlCompletion(code: CURLE_WRITE_ERROR)) { machine in
            machine.receivedBody()
            machine.streamStopped()
            _ = machine.exceededSize(limit: 10)
        }
        #expect(error?.detail == .bodyTooLarge(limit: 10))
    }
}

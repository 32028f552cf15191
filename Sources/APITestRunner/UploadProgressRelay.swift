import APITestResults

/// Carries a transfer's upload progress from the transfer thread to the run's events, in order: one stream and one
/// consuming task per transfer, instead of a task per tick (tasks may run in any order, so a reporter could show
/// 80 % after 100 %). The stream keeps only the newest tick not yet delivered, so a slow reporter never holds up the
/// transfer and never falls behind.
final class UploadProgressRelay: Sendable {
    private let continuation: AsyncStream<(sent: Int64, total: Int64)>.Continuation
    private let delivery: Task<Void, Never>
    private let threshold: Int64

    /// A relay of the progress of `testName`'s transfer to `events`, for bodies of at least `threshold` bytes.
    init(events: EventSink, suiteName: String, testName: String, threshold: Int64) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: (sent: Int64, total: Int64).self, bufferingPolicy: .bufferingNewest(1))
        self.continuation = continuation
        self.threshold = threshold
        delivery = Task {
            for await tick in stream {
                events.emit(
                    .uploadProgress(suiteName: suiteName, testName: testName, sent: tick.sent, total: tick.total))
            }
        }
    }

    /// Takes a tick on the transfer thread (`HTTPRequest.uploadProgress`); never blocks.
    @Sendable func record(sent: Int64, total: Int64) {
        guard total >= threshold else { return }
        continuation.yield((sent, total))
    }

    /// Ends the stream and waits until every tick taken has been delivered.
    func finish() async {
        continuation.finish()
        await delivery.value
    }
}

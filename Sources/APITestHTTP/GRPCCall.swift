public import Foundation

/// A gRPC call in flight (`SessionManager.startGRPC`): its response messages as an `AsyncSequence` while they
/// arrive, and how the call ended (`result()`).
///
/// ```swift
/// let call = try session.startGRPC(GRPCCallDescription(baseURL: url, path: "/pkg.Svc/List", messages: [request]))
/// for await message in call.messages { print(message.count) }
/// let result = try await call.result()   // result.status, result.trailers, ...
/// ```
public final class GRPCCall: Sendable {
    /// The response header fields, once the first message has arrived (or the call ended).
    public let headers: AsyncStream<HTTPHeaders>
    /// Each response message as soon as its frame is complete; finishes when the call ends.
    public let messages: AsyncStream<Data>
    private let task: Task<GRPCCallResult, any Error>

    init(session: SessionManager, description: GRPCCallDescription) {
        let (messages, messageSink) = AsyncStream.makeStream(of: Data.self)
        let (headers, headerSink) = AsyncStream.makeStream(of: HTTPHeaders.self, bufferingPolicy: .bufferingNewest(1))
        self.messages = messages
        self.headers = headers
        task = Task {
            defer {
                messageSink.finish()
                headerSink.finish()
            }
            let result = try await session.performGRPC(
                description,
                onHeaders: { fields in
                    headerSink.yield(fields)
                    headerSink.finish()
                },
                onMessage: { message in
                    messageSink.yield(message)
                    return true
                })
            headerSink.yield(result.headers)
            return result
        }
    }

    /// How the call ended. Cancelling the task that waits here cancels the call.
    ///
    /// - Throws: `GRPCError` when the call could not be sent, `CancellationError` when it was cancelled.
    public func result() async throws -> GRPCCallResult {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels the call: its transfer stops, and `result()` throws `CancellationError`.
    public func cancel() {
        task.cancel()
    }
}

extension SessionManager {
    /// Starts the gRPC call `call`; its messages and result are read from the returned `GRPCCall`.
    ///
    /// - Throws: `GRPCError` when the call cannot be sent (its URL, method path or metadata).
    public func startGRPC(_ call: GRPCCallDescription) throws(GRPCError) -> GRPCCall {
        _ = try call.url()
        _ = try call.metadata.requestFields()
        return GRPCCall(session: self, description: call)
    }
}

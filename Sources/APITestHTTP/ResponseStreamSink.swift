/// Where a streamed response body goes as it arrives (`ResponseBodyHandling.stream`): a reader of events that checks
/// them as they come, on the session's event-loop thread, so that nothing of the body is kept beyond what the
/// reader keeps.
///
/// The sink is told when a response's body starts (`begin`, with the status and the header fields), then gets each
/// block of bytes (`receive`); when it returns false, the transfer stops at once and still succeeds: the response
/// (status, headers, timings, the kept prefix of the body) is returned as if the body had ended there. The
/// closures run on the loop thread, one at a time; they must not block.
public final class ResponseStreamSink: @unchecked Sendable, Hashable {
    /// Called when a response's body starts, with its status code and header fields.
    let begin: (_ statusCode: Int, _ headers: HTTPHeaders) -> Void
    /// Called with each block of the body; false stops the transfer.
    let receive: (UnsafeRawBufferPointer) -> Bool
    /// Called with each field line that arrives after the response's header block ended (HTTP/2 trailers, HTTP/1.1
    /// chunked trailers), without its line ending; `nil` keeps such lines among the response's header fields.
    let trailer: ((UnsafeRawBufferPointer) -> Void)?

    /// A sink calling `begin` when a body starts and `receive` with its bytes.
    public init(
        begin: @escaping (_ statusCode: Int, _ headers: HTTPHeaders) -> Void,
        receive: @escaping (UnsafeRawBufferPointer) -> Bool
    ) {
        self.begin = begin
        self.receive = receive
        self.trailer = nil
    }

    /// A sink that also gets the trailer field lines apart from the header fields (gRPC's status is in them).
    public init(
        begin: @escaping (_ statusCode: Int, _ headers: HTTPHeaders) -> Void,
        receive: @escaping (UnsafeRawBufferPointer) -> Bool,
        trailer: @escaping (UnsafeRawBufferPointer) -> Void
    ) {
        self.begin = begin
        self.receive = receive
        self.trailer = trailer
    }

    /// Sinks are the same when they are the same object.
    public static func == (lhs: ResponseStreamSink, rhs: ResponseStreamSink) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

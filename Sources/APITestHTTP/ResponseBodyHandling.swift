/// What the session does with a response body as it arrives.
public enum ResponseBodyHandling: Sendable, Hashable {
    /// Keep the whole body in memory (`HTTPResponse.body`), up to the request's `maxBodySize`.
    case keep
    /// Count the body and compute `digests` as it streams, keeping only its first `prefix` bytes (for a preview in
    /// reports); no size limit applies, and memory stays constant whatever the body's size.
    /// `HTTPResponse.bodySize` and `bodyDigests` carry the results, `bodyIsComplete` is false.
    case digest(Set<BodyDigest.Algorithm>, prefix: Int)
    /// Hand the body to `sink` as it arrives (an event stream read while it lasts), keeping only its first `prefix`
    /// bytes; the sink may stop the transfer, which then succeeds with what arrived. `bodyIsComplete` is false.
    case stream(ResponseStreamSink, prefix: Int)
}

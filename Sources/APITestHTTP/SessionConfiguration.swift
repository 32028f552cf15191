/// Settings that apply to every transfer of a `SessionManager`.
public struct SessionConfiguration: Sendable {
    /// Transfers and idle connections kept at once (`CURLMOPT_MAXCONNECTS`); also the connection cache size, so
    /// connections are reused rather than evicted and reopened.
    public var maxConnections: Int
    /// Default time allowed for a whole transfer.
    public var timeout: Duration
    /// Default time allowed to establish a connection.
    public var connectTimeout: Duration
    /// Default upper bound on a response body; a larger body fails the transfer with `.bodyTooLarge`.
    public var maxBodySize: Int
    /// Event-loop threads the transfers run on, each with its own libcurl multi handle, connections
    /// (`maxConnections` each) and cookie jars; at least 1. A task that runs on one of them (see
    /// `SessionManager.transferExecutors`) sends its transfers on that one; other callers on the first.
    public var eventLoops: Int

    public init(
        maxConnections: Int = 50,
        timeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        maxBodySize: Int = 64 * 1024 * 1024,
        eventLoops: Int = 1
    ) {
        self.eventLoops = max(1, eventLoops)
        self.maxConnections = max(1, maxConnections)
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodySize = max(0, maxBodySize)
    }
}

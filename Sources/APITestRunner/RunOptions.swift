import APITestSupport

/// How a run is carried out.
public struct RunOptions: Sendable {
    /// Tests in flight at once; the steps inside a test always run in order.
    public var jobs: Int
    /// Time allowed for a request that sets no `timeout` of its own and whose suite sets no default.
    public var timeout: Duration
    /// Time allowed to establish a connection.
    public var connectTimeout: Duration
    /// The largest response body accepted.
    public var maxBodySize: Int
    /// The most bytes of a body kept in results for reports.
    public var bodyPreviewLimit: Int
    /// Sent as `User-Agent` unless a suite sets its own.
    public var userAgent: String

    public init(
        jobs: Int = 10,
        timeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        maxBodySize: Int = 64 * 1024 * 1024,
        bodyPreviewLimit: Int = 64 * 1024,
        userAgent: String = "apitest/\(APITestVersion.string)"
    ) {
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodySize = maxBodySize
        self.bodyPreviewLimit = bodyPreviewLimit
        self.userAgent = userAgent
    }
}

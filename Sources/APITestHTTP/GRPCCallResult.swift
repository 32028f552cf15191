/// How a gRPC call ended: its status (the server's, or the one a local failure gives), the response metadata and
/// the HTTP facts of the exchange.
public struct GRPCCallResult: Sendable {
    /// The status: the server's when `failure` is nil, else `failure.status`.
    public var status: GRPCStatus
    /// The failure of the client, transport or protocol that ended the call without a status from the server.
    public var failure: GRPCError?
    /// The response header fields (the initial metadata; in a trailers-only response, with the status).
    public var headers: HTTPHeaders
    /// The trailer fields (`grpc-status`, `grpc-message`, trailing metadata); empty in a trailers-only response.
    public var trailers: HTTPHeaders
    /// Whether the status came in the response headers, with no body and no trailers.
    public var isTrailersOnly: Bool
    /// The response messages handed over.
    public var messageCount: Int
    /// The HTTP exchange (status, version, timings, certificates, sent headers); nil when the transfer failed.
    public var response: HTTPResponse?

    /// The application's metadata in the response headers.
    public var initialMetadata: GRPCMetadata { GRPCMetadata(responseFields: headers) }
    /// The application's metadata in the trailers (in the headers of a trailers-only response).
    public var trailingMetadata: GRPCMetadata { GRPCMetadata(responseFields: isTrailersOnly ? headers : trailers) }
}

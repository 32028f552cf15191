/// What an assertion's query reads: the response (its status, headers, body...), or a gRPC call's trailers, which
/// a `header` query reads as the trailing metadata's fields (`expect.grpc.trailers`). The target names the checked
/// value in messages: `header x-trace` of the response, `trailer x-trace` of the trailers.
package enum QueryTarget: Sendable, Hashable {
    /// The response.
    case response
    /// A gRPC call's trailers (trailing metadata).
    case grpcTrailers

    /// How `query` is named when it reads this target.
    package func name(of query: Query) -> String {
        switch (self, query) {
        case (.grpcTrailers, .header(let name)): "trailer \(name)"
        default: query.description
        }
    }
}

import APITestSupport

/// What a response must satisfy.
package struct Expectations: Sendable, Hashable {
    /// The acceptable status codes; `nil` means any 2xx.
    package var status: StatusExpectation?
    /// Every other check, in the order written: the short forms (`headers`, `json`, `xml`, `cookies`, `body`, ...)
    /// and the general form (`assert`).
    package var assertions: [Assertion]
    /// A JSON Schema the JSON body must match.
    @Boxed package var schema: SchemaExpectation?
    /// The response read as a stream of events (`events:`), checked as they arrive.
    @Boxed package var events: EventsExpectation? = nil
    /// The errors a GraphQL response may hold (`graphql:`).
    @Boxed package var graphql: GraphQLExpectation? = nil
    /// The status, status message, details and trailers of a gRPC call (`grpc:`).
    @Boxed package var grpc: GRPCExpectation? = nil
    /// The body compared with a stored snapshot (`snapshot:`).
    @Boxed package var snapshot: SnapshotSpec? = nil

    package init(status: StatusExpectation? = nil, assertions: [Assertion] = [], schema: SchemaExpectation? = nil) {
        self.status = status
        self.assertions = assertions
        self.schema = schema
    }

    /// True when the status is acceptable: the listed codes and classes, or any 2xx when none is given.
    package func acceptsStatus(_ code: Int) -> Bool {
        status?.accepts(code) ?? (200...299).contains(code)
    }
}

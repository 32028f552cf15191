import APITestSupport

/// What a response must satisfy.
///
/// The checks most steps leave out (a schema, events, GraphQL errors, a gRPC status, a snapshot) share one box,
/// allocated only when one is set: one reference in every step instead of five (a suite can hold 100,000 steps).
package struct Expectations: Sendable, Hashable {
    /// The acceptable status codes; `nil` means any 2xx.
    package var status: StatusExpectation?
    /// Every other check, in the order written: the short forms (`headers`, `json`, `xml`, `cookies`, `body`, ...)
    /// and the general form (`assert`).
    package var assertions: [Assertion]
    /// The checks most steps leave out; nil when none is set (never a box of nils, so equality is the fields').
    @Boxed private var rare: Rare? = nil

    /// A JSON Schema the JSON body must match.
    package var schema: SchemaExpectation? {
        get { self[rare: \.schema] }
        set { self[rare: \.schema] = newValue }
    }
    /// The response read as a stream of events (`events:`), checked as they arrive.
    package var events: EventsExpectation? {
        get { self[rare: \.events] }
        set { self[rare: \.events] = newValue }
    }
    /// The errors a GraphQL response may hold (`graphql:`).
    package var graphql: GraphQLExpectation? {
        get { self[rare: \.graphql] }
        set { self[rare: \.graphql] = newValue }
    }
    /// The status, status message, details and trailers of a gRPC call (`grpc:`).
    package var grpc: GRPCExpectation? {
        get { self[rare: \.grpc] }
        set { self[rare: \.grpc] = newValue }
    }
    /// The body compared with a stored snapshot (`snapshot:`).
    package var snapshot: SnapshotSpec? {
        get { self[rare: \.snapshot] }
        set { self[rare: \.snapshot] = newValue }
    }

    package init(status: StatusExpectation? = nil, assertions: [Assertion] = [], schema: SchemaExpectation? = nil) {
        self.status = status
        self.assertions = assertions
        if let schema { self.schema = schema }
    }

    /// True when the status is acceptable: the listed codes and classes, or any 2xx when none is given.
    package func acceptsStatus(_ code: Int) -> Bool {
        status?.accepts(code) ?? (200...299).contains(code)
    }

    // MARK: - The rare checks

    /// The checks most steps leave out.
    private struct Rare: Sendable, Hashable {
        var schema: SchemaExpectation?
        var events: EventsExpectation?
        var graphql: GraphQLExpectation?
        var grpc: GRPCExpectation?
        var snapshot: SnapshotSpec?

        var isEmpty: Bool { schema == nil && events == nil && graphql == nil && grpc == nil && snapshot == nil }
    }

    /// One rare check, read in place; written into a new box (the box is shared by copies, never written), none
    /// when all are nil.
    private subscript<Check>(rare field: WritableKeyPath<Rare, Check?>) -> Check? {
        get { _rare[field] }
        set {
            var value = rare ?? Rare()
            value[keyPath: field] = newValue
            rare = value.isEmpty ? nil : value
        }
    }
}

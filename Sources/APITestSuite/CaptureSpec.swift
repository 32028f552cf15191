import APITestSupport

/// A value taken from a response and stored under a name for later steps of the same test.
public struct CaptureSpec: Sendable, Hashable {
    public var name: String
    /// What the value is read from; a JSONPath or XPath that matches several nodes captures the first.
    public var query: Query
    /// Applied in order to the query's value.
    public var filters: [Filter]
    public var location: SourceLocation

    public init(name: String, query: Query, filters: [Filter] = [], location: SourceLocation) {
        self.name = name
        self.query = query
        self.filters = filters
        self.location = location
    }
}

package import APITestSupport

/// A value taken from a response and stored under a name for later steps of the same test.
package struct CaptureSpec: Sendable, Hashable {
    package var name: String
    /// What the value is read from; a JSONPath that can select several nodes captures the list of those it
    /// selected, an XPath that matches several nodes the first.
    package var query: Query
    /// Applied in order to the query's value.
    package var filters: [Filter]
    package var location: SourceLocation

    package init(name: String, query: Query, filters: [Filter] = [], location: SourceLocation) {
        self.name = name
        self.query = query
        self.filters = filters
        self.location = location
    }
}

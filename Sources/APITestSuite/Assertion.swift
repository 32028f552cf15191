package import APITestSupport

/// One check: a query on the response, optional filters, a predicate and its argument.
package struct Assertion: Sendable, Hashable {
    /// Where the assertion is written (its key in a short form, the item in the general form).
    package var location: SourceLocation
    package var query: Query
    /// Applied in order to the query's value before the predicate.
    package var filters: [Filter]
    package var predicate: Predicate
    /// The predicate's argument; for `exists`, `notExists` and `isEmpty`, a boolean; for `between`, two bounds.
    package var argument: TemplateValue
    /// The argument of `matches`, compiled when the suite loads, when it has no placeholders; `nil` otherwise (a
    /// pattern with placeholders is compiled once rendered).
    package var pattern: RegularExpression?
    /// What the query reads when it is not the response itself (a gRPC call's trailers, read with a `header`
    /// query); it names the checked value in messages.
    package var target: QueryTarget = .response

    package init(
        location: SourceLocation, query: Query, filters: [Filter] = [], predicate: Predicate, argument: TemplateValue,
        pattern: RegularExpression? = nil
    ) {
        self.location = location
        self.query = query
        self.filters = filters
        self.predicate = predicate
        self.argument = argument
        self.pattern = pattern
    }

    /// How the checked value is named in reports: the query (as its target names it), then its filters
    /// (`$.users | count`, `trailer x-trace`).
    package var subject: String {
        let name = target.name(of: query)
        return filters.isEmpty ? name : ([name] + filters.map(\.description)).joined(separator: " | ")
    }
}

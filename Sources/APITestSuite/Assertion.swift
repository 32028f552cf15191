import APITestSupport

/// One check: a subject (header name or JSONPath), a predicate and its argument.
public struct Assertion: Sendable, Hashable {
    /// Where the assertion's key is written.
    public var location: SourceLocation
    /// The header name or JSONPath text.
    public var subject: String
    public var predicate: Predicate
    /// The predicate's argument; for `exists`, a boolean.
    public var argument: TemplateValue

    public init(location: SourceLocation, subject: String, predicate: Predicate, argument: TemplateValue) {
        self.location = location
        self.subject = subject
        self.predicate = predicate
        self.argument = argument
    }
}

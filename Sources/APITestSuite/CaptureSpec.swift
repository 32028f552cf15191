import APITestSupport

/// A value taken from a response and stored under a name for later steps of the same test.
public struct CaptureSpec: Sendable, Hashable {
    /// Where a captured value comes from.
    public enum Source: Sendable, Hashable {
        /// A JSONPath query on the JSON response body; the first match is captured.
        case jsonpath(String)
        /// A response header (case-insensitive name).
        case header(String)
    }

    public var name: String
    public var source: Source
    public var location: SourceLocation

    public init(name: String, source: Source, location: SourceLocation) {
        self.name = name
        self.source = source
        self.location = location
    }
}

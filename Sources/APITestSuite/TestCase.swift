import APITestSupport

/// One test of a suite: a name and the steps that run in order, sharing captures.
public struct TestCase: Sendable, Hashable {
    public var name: String
    /// Tags from the suite (`tags: [smoke]`), for selecting tests.
    public var tags: [String]
    /// Where the test's map starts.
    public var location: SourceLocation
    /// The steps; a test written with `request`/`expect`/`capture` has exactly one.
    public var steps: [Step]

    public init(name: String, tags: [String] = [], location: SourceLocation, steps: [Step]) {
        self.name = name
        self.tags = tags
        self.location = location
        self.steps = steps
    }
}

/// One request of a test, what its response must satisfy, and what to capture from it.
public struct Step: Sendable, Hashable {
    public var location: SourceLocation
    public var request: RequestSpec
    public var expect: Expectations
    public var captures: [CaptureSpec]

    public init(location: SourceLocation, request: RequestSpec, expect: Expectations, captures: [CaptureSpec]) {
        self.location = location
        self.request = request
        self.expect = expect
        self.captures = captures
    }
}

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

import APITestSupport

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

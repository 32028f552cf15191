import APITestSupport

/// What a response must satisfy.
public struct Expectations: Sendable, Hashable {
    /// The acceptable status codes; `nil` means any 2xx.
    public var status: StatusExpectation?
    /// Assertions on response headers; `subject` is the header name (case-insensitive).
    public var headers: [Assertion]
    /// Assertions on the JSON body; `subject` is a JSONPath query.
    public var json: [Assertion]

    public init(status: StatusExpectation? = nil, headers: [Assertion] = [], json: [Assertion] = []) {
        self.status = status
        self.headers = headers
        self.json = json
    }

    /// True when the status is acceptable: the listed codes and classes, or any 2xx when none is given.
    public func acceptsStatus(_ code: Int) -> Bool {
        status?.accepts(code) ?? (200...299).contains(code)
    }
}

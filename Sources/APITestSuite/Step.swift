import APITestSupport

/// One request of a test, what its response must satisfy, and what to capture from it.
public struct Step: Sendable, Hashable {
    public var location: SourceLocation
    public var request: RequestSpec
    public var expect: Expectations
    public var captures: [CaptureSpec]
    /// How the step is repeated until it holds; `nil` for once (or the suite's `defaults.retry`).
    public var retry: RetrySpec?

    public init(
        location: SourceLocation, request: RequestSpec, expect: Expectations, captures: [CaptureSpec],
        retry: RetrySpec? = nil
    ) {
        self.location = location
        self.request = request
        self.expect = expect
        self.captures = captures
        self.retry = retry
    }
}

// MARK: - Templates

extension Step {
    /// Every template the step renders: its request (URL, query, headers, credentials, body, content type) and the
    /// arguments of its checks.
    public var templates: [Template] {
        let request = self.request
        var templates = [request.url]
        templates.reserveCapacity(1 + request.headers.count + expect.assertions.count)
        for header in request.headers { templates.append(header.value) }
        if let query = request.query { templates += query.templates }
        if let auth = request.basicAuth { templates += [auth.username, auth.password] }
        if let body = request.body { templates += body.templates }
        if let contentType = request.contentType { templates.append(contentType) }
        for assertion in expect.assertions { templates += assertion.argument.templates }
        for assertion in retry?.until?.assertions ?? [] { templates += assertion.argument.templates }
        return templates
    }
}

package import APITestSupport

/// One request of a test, what its response must satisfy, and what to capture from it.
package struct Step: Sendable, Hashable {
    package var location: SourceLocation
    package var request: RequestSpec
    package var expect: Expectations
    package var captures: [CaptureSpec]
    /// How the step is repeated until it holds; `nil` for once (or the suite's `defaults.retry`).
    package var retry: RetrySpec?

    package init(
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
    package var templates: [Template] {
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

/// Whether a suite needs an XML parser: XPath queries and the `xpath` filter read XML (libxml2, which the HTTP
/// layer loads on first use); nothing else does.
extension Suite {
    /// True when a check, capture or `until` condition of a step that will run (setup and teardown included;
    /// tests marked `skip` left out), or the default retry's `until`, uses XPath.
    package var usesXPath: Bool {
        if defaults.retry?.until?.usesXPath == true { return true }
        return containsStep(includingSkippedTests: false) { step in
            step.expect.usesXPath || (step.retry?.until?.usesXPath ?? false)
                || step.captures.contains { Self.usesXPath($0.query, $0.filters) }
        }
    }

    static func usesXPath(_ query: Query, _ filters: [Filter]) -> Bool {
        if case .xpath = query { return true }
        return filters.contains { filter in
            if case .xpath = filter { return true }
            return false
        }
    }
}

extension Expectations {
    /// True when an assertion reads the body with XPath.
    var usesXPath: Bool {
        assertions.contains { Suite.usesXPath($0.query, $0.filters) }
    }
}

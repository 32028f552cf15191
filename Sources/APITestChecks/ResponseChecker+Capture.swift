import APITestJSON
package import APITestResults
package import APITestSecrets
package import APITestSuite

// MARK: - Captures

extension ResponseChecker {
    /// Takes the step's captures into `context`; a capture with no value is a failure. A capture whose value, or
    /// the text its filters started from, holds a secret is secret: it is masked wherever it shows up later, in
    /// whatever form the filters gave it (`lowercase`, `base64Encode`).
    ///
    /// A JSONPath that can select several nodes (not singular: a wildcard, slice, filter, union or descendant
    /// segment) captures the list of the nodes it selected, empty when it selected none; a singular one captures
    /// its node. An XPath node-set captures its first node unless filters follow, a repeated header
    /// its first value.
    package func capture(
        _ captures: [CaptureSpec], body: inout ResponseBody, into context: inout TemplateContext,
        masker: SecretMasker
    ) -> (captured: [String], failures: [AssertionFailure]) {
        var captured: [String] = []
        var failures: [AssertionFailure] = []
        let filters = FilterEvaluator()
        for capture in captures {
            switch capturedValue(of: capture, in: &body, filters) {
            case .success(let (value, start)):
                let secret = [start, value].contains {
                    $0.map { masker.containsSecret(JSONWriter.string($0)) } ?? false
                }
                // A capture by JSONPath holds a JSON value, compared later by its JSON type.
                let source = QueryEvaluator.source(of: capture.query, after: capture.filters)
                context.set(capture.name, value, secret: secret, jsonTyped: source == .json)
                captured.append(capture.name)
            case .failure(let problem):
                failures.append(
                    AssertionFailure(
                        location: capture.location, subject: "capture \(capture.name)",
                        message: "capture '\(capture.name)': \(problem.text)"))
            }
        }
        return (captured, failures)
    }

    /// The value a capture takes before its filters: the list a non-singular JSONPath selected (empty when it
    /// selected nothing), else the query's value (the first of an XPath node-set when no filter follows, the first of
    /// a repeated header); nil when the query found nothing.
    static func captureStart(of capture: CaptureSpec, _ found: QueryEvaluator.Found) -> JSONValue? {
        let filtered = !capture.filters.isEmpty
        switch found {
        case .one(let value):
            if case .xpath = capture.query, case .array(let nodes)? = value, !filtered { return nodes.first }
            return value
        case .each(let values): return values.first
        case .noNodes:
            if case .jsonpath(let path) = capture.query, !path.isSingular { return .array([]) }
            return filtered ? .array([]) : nil
        }
    }

    /// The value a capture takes (its start, filtered) and the value its filters started from.
    private func capturedValue(
        of capture: CaptureSpec, in body: inout ResponseBody, _ filters: FilterEvaluator
    ) -> Result<(value: JSONValue, start: JSONValue?), CheckProblem> {
        let start: JSONValue?
        switch queries.value(of: capture.query, in: &body) {
        case .failure(let problem): return .failure(problem)
        case .success(let found): start = Self.captureStart(of: capture, found)
        }
        switch apply(capture.filters, to: start, filters) {
        case .failure(let problem): return .failure(problem)
        case .success(let value?): return .success((value, start))
        case .success(nil): break
        }
        let what = capture.filters.isEmpty ? "\(capture.query)" : "\(capture.query) after its filters"
        switch capture.query {
        case .header(let name): return .failure(CheckProblem("the response has no header '\(name)'"))
        default: return .failure(CheckProblem("\(what) matched nothing"))
        }
    }
}

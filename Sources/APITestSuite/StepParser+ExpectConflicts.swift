import APITestSupport

// MARK: - Checks that cannot apply to the step's request

extension StepParser {
    /// Reports the checks of `expect` that the step could never pass, at load time rather than on every run:
    /// beside `events`, a check that reads the response body (the body is read as a stream of events and not
    /// kept); and `graphql` on a request that is not `graphql:` (`requestIsGraphQL`, the request's `isGraphQL`: the
    /// request itself is not passed, which made a copy of it for every step).
    static func checkExpectConflicts(
        _ expectations: Expectations, requestIsGraphQL: Bool, in context: SuiteParseContext
    ) {
        if expectations.events != nil {
            checkBodyChecksBesideEvents(expectations, in: context)
        }
        if let graphql = expectations.graphql, !requestIsGraphQL {
            context.error(
                "'expect.graphql' checks the errors of a GraphQL response, and this request is not 'graphql:'",
                at: graphql.location,
                note: "send the operation with request.graphql: {query: ...}, or check the body with 'json:'")
        }
    }

    /// Reports the first check beside `expect.events` that reads the response body.
    private static func checkBodyChecksBesideEvents(_ expectations: Expectations, in context: SuiteParseContext) {
        let why =
            "reads the response body, which 'expect.events' reads as a stream of events without keeping it"
        let note = "check each event's data within 'events' instead: {each: {json: {$.id: {exists: true}}}}"
        if let assertion = expectations.assertions.first(where: { readsBody($0.query) }) {
            context.error("'\(assertion.subject)' \(why)", at: assertion.location, note: note)
        } else if let schema = expectations.schema {
            context.error("'schema' \(why)", at: schema.location, note: note)
        } else if let snapshot = expectations.snapshot {
            context.error("'snapshot' \(why)", at: snapshot.location, note: note)
        }
    }

    /// Whether `query` needs the body's content (not only its size or digests, which a stream of events still has).
    private static func readsBody(_ query: Query) -> Bool {
        switch query {
        case .body, .jsonpath, .xpath, .regex, .image: true
        case .status, .header, .cookie, .duration, .bodySize, .sha256, .md5, .url, .redirects, .certificate, .stream:
            false
        }
    }
}

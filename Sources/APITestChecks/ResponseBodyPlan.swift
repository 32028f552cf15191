package import APITestHTTP
package import APITestSuite

/// Whether a step's response body is kept in memory or only counted and hashed as it streams.
///
/// A body that no check reads (no body, JSONPath, XPath, regex or image query, no schema, no capture from the body,
/// in `expect` or in the retry's `until`) is not kept: its size and the digests its checks ask for are computed as
/// it arrives, and only its first bytes are kept for the preview reports and `--verbose` show. So `bodySize` and
/// `sha256` checks work on bodies of any size in constant memory, and `maxResponseSize` does not apply to them.
package enum ResponseBodyPlan {
    /// The handling of the response to `step`, whose retry checks `until` (if any); `previewBytes` are kept. A
    /// suite with an OpenAPI contract (`checkedByContract`) keeps every body: its schema is checked.
    package static func handling(
        for step: Step, until: Expectations?, previewBytes: Int, checkedByContract: Bool = false
    ) -> ResponseBodyHandling {
        // `expect` read once: each `step.expect.…` copied the whole of it out of the step (retaining all it holds).
        let expect = step.expect
        guard !checkedByContract, expect.schema == nil, until?.schema == nil else { return .keep }
        // A GraphQL response's `errors` are read whatever the checks.
        if expect.graphql != nil || step.request.isGraphQL { return .keep }
        // Every query of the step once, without gathering them in a list: this runs for every request.
        var digests: Set<BodyDigest.Algorithm> = []
        /// Records the digest `query` asks for; false when it reads the body.
        func admit(_ query: Query) -> Bool {
            switch query {
            case .sha256: digests.insert(.sha256)
            case .md5: digests.insert(.md5)
            default: if readsBody(query) { return false }
            }
            return true
        }
        // A snapshot compares the whole body.
        if expect.snapshot != nil { return .keep }
        let expected = expect.assertions
        for index in expected.indices where !admit(expected[index].query) { return .keep }
        let captures = step.captures
        for index in captures.indices where !admit(captures[index].query) { return .keep }
        if let awaited = until?.assertions {
            for index in awaited.indices where !admit(awaited[index].query) { return .keep }
        }
        return .digest(digests, prefix: previewBytes)
    }

    /// Whether `query` needs the body's content (not only its size or digests).
    static func readsBody(_ query: Query) -> Bool {
        switch query {
        case .body, .jsonpath, .xpath, .regex, .image: return true
        case .status, .header, .cookie, .duration, .bodySize, .sha256, .md5, .url, .redirects, .certificate, .stream:
            return false
        }
    }
}

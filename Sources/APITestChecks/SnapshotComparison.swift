package import APITestJSON
package import APITestSupport

/// A response body against its stored snapshot, worded as the checks word a JSON difference (``JSONDiff``): the
/// first place the two differ, the values quoted so that sealing masks and cuts them.
package enum SnapshotComparison {
    /// The first difference of the body's JSON `actual` from the snapshot's `expected` (member order ignored, item
    /// order kept), or `nil` when they are equal: `differs at $.user.name: expected "a", got "b"`.
    package static func difference(expected: JSONValue, actual: JSONValue) -> MessageText? {
        if expected == actual { return nil }
        let limit = ResponseChecker.messageValueLimit
        if let difference = JSONDiff.firstDifference(expected: expected, actual: actual) {
            return "differs at $\(difference.path): \(quoting: difference.description, limit: limit)"
        }
        let shown = PredicateEvaluator.distinguishable(JSONWriter.string(expected), JSONWriter.string(actual))
        return "expected \(quoting: shown.expected, limit: limit), got \(quoting: shown.actual, limit: limit)"
    }

    /// The first line where the body's text `actual` differs from the snapshot's `expected`, or `nil` when they
    /// are the same code points: `differs at line 3: expected "a", got "b"` (each line quoted as a JSON string, so
    /// that blanks and control characters show).
    package static func difference(expectedText expected: String, actualText actual: String) -> MessageText? {
        if expected.hasSameCodePoints(as: actual) { return nil }
        let limit = ResponseChecker.messageValueLimit
        let want = lines(of: expected)
        let got = lines(of: actual)
        for index in 0..<max(want.count, got.count) {
            let line = index + 1
            guard index < got.count else {
                let counts = "the body has \(got.count) line(s), the snapshot \(want.count)"
                return
                    "differs at line \(line): missing (\(counts)), expected \(quoting: JSONWriter.quoted(want[index]), limit: limit)"
            }
            guard index < want.count else {
                let counts = "the body has \(got.count) line(s), the snapshot \(want.count)"
                return
                    "differs at line \(line): unexpected \(quoting: JSONWriter.quoted(got[index]), limit: limit) (\(counts))"
            }
            if !want[index].hasSameCodePoints(as: got[index]) {
                let shown = (expected: JSONWriter.quoted(want[index]), actual: JSONWriter.quoted(got[index]))
                return
                    "differs at line \(line): expected \(quoting: shown.expected, limit: limit), got \(quoting: shown.actual, limit: limit)"
            }
        }
        return "differs in its line endings"
    }

    /// The lines of `text`, split at `\n` only (a `\r` stays part of its line, so line endings count).
    private static func lines(of text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
    }
}

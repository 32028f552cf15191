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

    /// The first byte where the body's bytes `actual` differ from the snapshot's `expected` (a body that is not
    /// UTF-8 text, compared byte for byte), or `nil` when they are the same bytes:
    /// `differs at byte 12 of 8090: expected 0x80, got 0x81`.
    package static func difference(expectedBytes expected: [UInt8], actualBytes actual: [UInt8]) -> MessageText? {
        if expected == actual { return nil }
        let sizes = "the body has \(actual.count) bytes, the snapshot \(expected.count)"
        guard let index = (0..<min(expected.count, actual.count)).first(where: { expected[$0] != actual[$0] }) else {
            return "differs at byte \(min(expected.count, actual.count) + 1): \(sizes)"
        }
        let same = expected.count == actual.count ? " of \(actual.count)" : " (\(sizes))"
        return "differs at byte \(index + 1)\(same): expected \(hex(expected[index])), got \(hex(actual[index]))"
    }

    /// `0x0A`.
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// The lines of `text`, split at `\n` only (a `\r` stays part of its line, so line endings count).
    private static func lines(of text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
    }
}

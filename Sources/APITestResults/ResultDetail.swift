/// How much of each step's result the reporters of a run read, so that a run records no more than they show.
///
/// A step that fails or errors always carries its whole exchange: every reporter shows failures in full. The
/// levels differ in what a passing step carries, and only `.everyStep` lists the checks that held.
package enum ResultDetail: Int, Sendable, Comparable, CaseIterable {
    /// A passing step carries neither its exchange nor its checks: its status is all that is shown.
    case failures
    /// A passing step carries its request line, status, HTTP version and timings (an `Exchange` without headers
    /// or bodies), but not its checks.
    case requestLines
    /// Every step carries its whole exchange (masked headers and body previews) and every check made.
    case everyStep

    package static func < (lhs: ResultDetail, rhs: ResultDetail) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The detail a step is recorded with: everything for a step that did not pass, this level for one that did.
    package func forStep(passed: Bool) -> ResultDetail {
        passed ? self : .everyStep
    }
}

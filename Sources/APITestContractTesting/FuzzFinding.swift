/// A failure a team keeps: one check failing one way on one operation, with the first case that showed it and,
/// once shrunk, the smallest request that still shows it.
package struct FuzzFinding: Sendable {
    /// The check that failed.
    package var check: FuzzCheck
    /// The operation's index in the description.
    package var operation: Int
    /// What makes it this finding (see ``CheckFailure/signature``).
    package var signature: String
    /// The first failure's sentence.
    package var message: String
    /// The first case that showed it, and what came of it.
    package var outcome: CaseOutcome
    /// The same failure on the smallest request found, when shrinking made one smaller.
    package var shrunk: CaseOutcome?
    /// How many cases showed it.
    package var occurrences: Int
    /// What re-running a stateful finding's sequence showed; nil when it was not re-run (a finding of one request,
    /// or a dry run).
    package var reproduction: Reproduction?
    /// What shrinking a stateful finding took out (the steps left out, the members and parameters left out of a
    /// step's request), one sentence each, for the written suite's comment.
    package var shrinkNotes: [String] = []

    /// What re-running a stateful finding's sequence showed.
    package enum Reproduction: Sendable, Hashable {
        /// The same check failed the same way at the same step again.
        case reproduced
        /// It did not, in `requests` requests: the server is flaky, or the failure depends on what came before the
        /// sequence.
        case notReproduced(requests: Int)
        /// The sequence was not re-run: the budget (``FuzzConfiguration/shrinkAttempts``) or `--duration` did not
        /// leave room for it.
        case notTried
    }

    /// The outcome a finding is reported and written with: the shrunk one when there is one.
    package var minimal: CaseOutcome { shrunk ?? outcome }
}

/// What a fuzz run did: every case sent, in order, and the findings.
package struct FuzzRun: Sendable {
    /// Every outcome, in the order the cases were made.
    package var outcomes: [CaseOutcome]
    /// Cases made but not sent before the deadline.
    package var notSent: Int
    /// The findings, by operation then check.
    package var findings: [FuzzFinding]
    /// The wall time of the run.
    package var duration: Duration

    /// A run that sent `outcomes` and left `notSent` cases, with `findings`, in `duration`.
    package init(outcomes: [CaseOutcome], notSent: Int, findings: [FuzzFinding], duration: Duration) {
        self.outcomes = outcomes
        self.notSent = notSent
        self.findings = findings
        self.duration = duration
    }

    /// The findings of `outcomes`: the first case of each operation, check and signature.
    package static func findings(of outcomes: [CaseOutcome]) -> [FuzzFinding] {
        var findings: [FuzzFinding] = []
        var positions: [String: Int] = [:]
        for outcome in outcomes {
            for failure in outcome.failures {
                let key = "\(outcome.fuzzCase.operation)\u{0}\(failure.check.rawValue)\u{0}\(failure.signature)"
                if let position = positions[key] {
                    findings[position].occurrences += 1
                    continue
                }
                positions[key] = findings.count
                findings.append(
                    FuzzFinding(
                        check: failure.check, operation: outcome.fuzzCase.operation, signature: failure.signature,
                        message: failure.message, outcome: outcome, shrunk: nil, occurrences: 1))
            }
        }
        return findings.sorted { lhs, rhs in
            if lhs.operation != rhs.operation { return lhs.operation < rhs.operation }
            if lhs.check != rhs.check { return lhs.check < rhs.check }
            return lhs.signature < rhs.signature
        }
    }
}

import APITestSupport

// MARK: - One file per snapshot

extension SnapshotParser {
    /// Reports every snapshot a run of `suite` would write more than once: a name used by two steps of the suite
    /// (both steps would write `__snapshots__/<suite file stem>/<name>.json`, the later silently replacing the
    /// earlier, and the next run failing one of them), located at the later step and naming the earlier one; and a
    /// snapshot in a step that `forEach` repeats (the step's own, its group's or its test's), whose runs would all
    /// write the one file. With `testsMayHaveSnapshots` false (the caller knows no test takes one), only setup and
    /// teardown are scanned for a snapshot.
    static func checkUnique(_ suite: Suite, in context: SuiteParseContext, testsMayHaveSnapshots: Bool = true) {
        // Nearly every suite has no snapshot: a scan that captures nothing (no exclusivity checks on the state below
        // for every test) finds out first.
        guard Self.hasSnapshot(suite, scanningTests: testsMayHaveSnapshots) else { return }
        var first: [String: (location: SourceLocation, owner: String)] = [:]
        var reported: Set<SourceLocation> = []
        // `owner` names the steps' owner for a later error: made only for a step with a snapshot (a suite can have
        // 100,000 tests, a few with snapshots).
        func check(_ steps: [Step], owner: () -> String, repeated testRepeats: Bool) {
            // The index up to which (exclusive) a `forEach` group holds the steps.
            var loopedUntil = 0
            for index in steps.indices {
                if steps[index].hasControl, let group = steps[index].control?.group, group.loop != nil {
                    loopedUntil = max(loopedUntil, index + group.count)
                }
                guard let spec = steps[index].expect.snapshot, !reported.contains(spec.location) else { continue }
                if testRepeats || steps[index].loop != nil || index < loopedUntil {
                    reported.insert(spec.location)
                    context.error(
                        "snapshot '\(spec.name.shownInMessage)' is in a step that forEach repeats: every run would "
                            + "write the same file, each replacing the one before", at: spec.location,
                        note: "a snapshot is one response; take it in a step outside the forEach")
                } else if let earlier = first[spec.name] {
                    guard earlier.location != spec.location else { continue }
                    reported.insert(spec.location)
                    context.error(
                        "snapshot name '\(spec.name.shownInMessage)' is already used at \(earlier.location) "
                            + "(\(earlier.owner)): both steps would write the same file, the later replacing the "
                            + "earlier", at: spec.location, note: "give each snapshot a name of its own")
                } else {
                    first[spec.name] = (spec.location, owner())
                }
            }
        }
        check(suite.setup, owner: { "setup" }, repeated: false)
        // By index: copying each `TestCase` out of the array costs more than looking at its steps.
        let tests = suite.tests
        for index in tests.indices {
            check(
                tests[index].steps, owner: { "test '\(tests[index].name.shownInMessage)'" },
                repeated: !tests[index].bindings.isEmpty)
        }
        check(suite.teardown, owner: { "teardown" }, repeated: false)
    }

    /// Whether a step of `suite` (its setup's, a test's when `scanningTests`, or its teardown's) takes a snapshot.
    private static func hasSnapshot(_ suite: Suite, scanningTests: Bool) -> Bool {
        func any(_ steps: [Step]) -> Bool {
            for index in steps.indices where steps[index].expect.snapshot != nil { return true }
            return false
        }
        if scanningTests {
            let tests = suite.tests
            for index in tests.indices where any(tests[index].steps) { return true }
        }
        return any(suite.setup) || any(suite.teardown)
    }
}

/// Visiting every step of a suite in place.
///
/// A suite can hold 100,000 steps: joining `setup`, `teardown` and every test's `steps` into one array (a `flatMap`)
/// copies them all, and grows that array several times, to read each once. These walk the arrays by index instead.
extension Suite {
    /// True when `predicate` holds for a step: those of `setup`, of each test in order, then of `teardown`. With
    /// `includingSkippedTests` false, the steps of tests marked `skip` are left out. Stops at the first match.
    package func containsStep(
        includingSkippedTests: Bool = true, where predicate: (Step) throws -> Bool
    ) rethrows -> Bool {
        for index in setup.indices where try predicate(setup[index]) { return true }
        for testIndex in tests.indices where includingSkippedTests || tests[testIndex].skip == nil {
            for stepIndex in tests[testIndex].steps.indices where try predicate(tests[testIndex].steps[stepIndex]) {
                return true
            }
        }
        for index in teardown.indices where try predicate(teardown[index]) { return true }
        return false
    }

    /// Calls `body` with every step, in the order of `containsStep(includingSkippedTests:where:)`.
    package func forEachStep(includingSkippedTests: Bool = true, _ body: (Step) throws -> Void) rethrows {
        _ = try containsStep(includingSkippedTests: includingSkippedTests) { step in
            try body(step)
            return false
        }
    }
}

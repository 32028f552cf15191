package import APITestSupport

/// The uses of unset environment variables (`{{ env.NAME }}` with `NAME` unset) a suite's parts make, kept by a
/// loader that leaves them to the selection (``SuiteLoader/defersUnsetEnvironment``): `apitest run --filter B`
/// runs test B although test A uses an unset variable, and still refuses, with the same located errors, when it
/// selects A. Each use is the error the loader would have reported at its placeholder.
///
/// A test needs its own uses, those of the suite variables it uses (directly or through other variables), and
/// those of the suite-level parts every test of the suite needs: the base URL, `defaults`, `setup`, `teardown`
/// and the variables they use. A variable that uses an unset variable is left out of the suite's context
/// (``variables``): no selected test uses it.
package struct UnsetEnvironment: Sendable, Hashable {
    /// The errors of the suite-level parts (and the variables they use): needed when any test of the suite runs.
    package var suiteLevel: [Diagnostic] = []
    /// The errors of each test, by its index in the suite's `tests` (the variables it uses included).
    package var tests: [Int: [Diagnostic]] = [:]
    /// The indices in the suite's `variables` of the variables that use an unset environment variable, directly or
    /// through an earlier variable: ``Suite/makeContext()`` leaves them out.
    package var variables: Set<Int> = []
    /// The suite file's text and those of the files it includes (by their location path), to show the lines of
    /// the errors as the loader does; kept only when there are errors.
    package var source: String?
    package var includedSources: [String: String] = [:]

    /// An empty record.
    package init() {}

    /// Whether no part of the suite uses an unset environment variable.
    package var isEmpty: Bool { suiteLevel.isEmpty && tests.isEmpty && variables.isEmpty }

    /// Every error, in source order: what the loader reports when it does not defer them.
    package var all: [Diagnostic] { ordered(suiteLevel + tests.values.joined()) }

    /// The errors a run of the tests at `testIndices` meets, in source order, each once: none when no test is
    /// selected (the suite does not run), else the suite-level ones and those of the selected tests.
    package func errors(forTests testIndices: some Sequence<Int>) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var any = false
        for index in testIndices {
            any = true
            found += tests[index] ?? []
        }
        return any ? ordered(suiteLevel + found) : []
    }

    /// `diagnostics` in source order, each once.
    private func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return SuiteLoader.sorted(diagnostics.filter { seen.insert($0).inserted })
    }

    /// The errors as the loader shows a file's errors (each with its line and caret).
    package func failure(_ diagnostics: [Diagnostic]) -> SuiteLoadError {
        SuiteLoadError(diagnostics: diagnostics, source: source, includedSources: includedSources)
    }
}

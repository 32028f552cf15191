// MARK: - LoadBudget

/// The limits that keep loading a suite, and rendering its templates, bounded whatever the input: every recursive
/// structure (YAML collections, value trees, expressions) is nested at most ``maximumNesting`` levels, and every
/// structure that can expand (aliases, variables made of variables, step includes) stays within a budget of its
/// own. Each limit, when passed, is a located error of the suite (or of the step, at run time), never a crash, a
/// hang or a silent pass. The limits are far beyond any real suite.
package enum LoadBudget {
    /// The deepest nesting of YAML collections, of value trees (`json:`, `variables:`, predicate arguments, aliases
    /// expanded) and of expressions (parentheses, lists, calls, `not`, and each operator of a chain).
    package static let maximumNesting = 256
    /// The most value nodes a suite may expand to (aliases expanded).
    package static let maximumValueNodes = 1_000_000
    /// The most bytes of scalar text a suite's values may expand to (aliases expanded).
    package static let maximumValueBytes = 64 << 20
    /// The most bytes a rendered template or value may take (as text, or as compact JSON): variables made of
    /// variables that double at each level stop here, at load for the suite's variables, at run time for a step.
    package static let maximumRenderedBytes = 64 << 20
    /// The most steps a suite may hold once its step includes are expanded (each group and `include` counts as one
    /// more).
    package static let maximumSteps = 1_000_000
    /// The most times a suite's files may be included, all included files together (a file that includes the next
    /// one twice, twenty times over, is a million includes).
    package static let maximumIncludes = 100_000
    /// The deepest chain of includes (a file that includes a file that includes ...).
    package static let maximumIncludeDepth = 32

    /// `nested deeper than 256 levels`, the end of every nesting error.
    package static var nestingLimitText: String { "nested deeper than \(maximumNesting) levels" }

    /// The message of a rendered value over ``maximumRenderedBytes``.
    package static var renderedSizeText: String {
        "the rendered value is too large (over \(maximumRenderedBytes >> 20) MiB); are variables made of variables "
            + "that double at each level?"
    }
}

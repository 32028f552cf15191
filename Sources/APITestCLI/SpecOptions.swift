import ArgumentParser

/// How strictly a command reads an OpenAPI document: the one owner of `--strict-spec`, an option group of every
/// command that reads one (`run`, `validate`, `list`, `load` and `export curl` through ``SuiteOptions``, for
/// `--openapi` and the suites' `openapi:`; `generate openapi`; `fuzz`).
///
/// Without it a vendor's document that is not strictly valid loads with located warnings saying what was
/// translated or ignored (a 3.0 form in a 3.1 document, an unknown format, a misused example); with it each of
/// those is an error with the same words, and nothing runs.
struct SpecOptions: ParsableArguments {
    @Flag(
        name: .customLong("strict-spec"),
        help: ArgumentHelp(
            "Refuse an OpenAPI document that is not strictly valid: each load warning (OpenAPI 3.0 forms in a 3.1 "
                + "document, unknown formats, misused examples) is an error."))
    var strictSpec = false

    /// Nothing to check: a flag. Declared here so that the argument tables (`RunArgumentTable.swift`, ...), which
    /// calls each group's `validate()`, sees it without importing swift-argument-parser.
    func validate() throws {}
}

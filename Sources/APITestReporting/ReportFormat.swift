package import APITestResults

/// A kind of report file: turns a run record into the file's text.
package protocol ReportFormat: Sendable {
    /// The format's name in messages, e.g. `JUnit XML`.
    var displayName: String { get }
    /// The whole file.
    func render(_ record: RunRecord) -> String
    /// What the format shows of a passing step.
    var resultDetail: ResultDetail { get }
}

extension ReportFormat {
    /// Every step's whole exchange and checks, for a format that does not say what it shows.
    package var resultDetail: ResultDetail { .everyStep }
}

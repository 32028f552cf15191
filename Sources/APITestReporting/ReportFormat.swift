/// A kind of report file: turns a run record into the file's text.
package protocol ReportFormat: Sendable {
    /// The format's name in messages, e.g. `JUnit XML`.
    var displayName: String { get }
    /// The whole file.
    func render(_ record: RunRecord) -> String
}

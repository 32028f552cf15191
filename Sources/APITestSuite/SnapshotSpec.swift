package import APITestJSON
package import APITestSupport

/// `expect.snapshot`: the response body compared with a stored file, `__snapshots__/<suite file stem>/<name>.json`
/// (`.txt` for a body that is not JSON) next to the suite; JSON structurally, other bodies as text (see
/// docs/suite-format.md, "Snapshots").
package struct SnapshotSpec: Sendable, Hashable {
    /// A built-in pattern of volatile values (`redact:`): a matching string is replaced by a placeholder on both
    /// sides before comparing, and in the stored file.
    package enum Redaction: String, Sendable, Hashable, CaseIterable {
        /// A UUID, `8-4-4-4-12` hexadecimal digits, any case: `<uuid>`.
        case uuid
        /// An ISO 8601 calendar date, `2026-11-29`, with or without a time after it: `<date>`.
        case date
        /// An ISO 8601 / RFC 3339 date-time, `2026-11-29T15:44:11Z`: `<datetime>`.
        case datetime

        /// What replaces a matching value.
        package var placeholder: String { "<\(rawValue)>" }
    }

    /// The snapshot's name: its file's name without the extension (letters, digits, `-`, `_`, `.`).
    package var name: String
    /// The members and items removed from both sides before comparing (`ignore:`).
    package var ignore: [JSONPath]
    /// The patterns of values replaced by a placeholder on both sides (`redact:`), in the order written.
    package var redact: [Redaction]
    /// Where `snapshot` is written in the suite.
    package var location: SourceLocation

    /// A snapshot named `name`, written at `location`.
    package init(name: String, ignore: [JSONPath] = [], redact: [Redaction] = [], location: SourceLocation) {
        self.name = name
        self.ignore = ignore
        self.redact = redact
        self.location = location
    }
}

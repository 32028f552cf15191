package import APITestSupport

/// One assertion as checked: where it is written, what it checked, what it expected, and whether it held.
package struct AssertionCheck: Sendable, Hashable, Codable {
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `$.users[0].name`.
    package var subject: String
    /// What it had to be, e.g. `200`, `to contain "json"`.
    package var expected: String
    package var passed: Bool

    package init(location: SourceLocation, subject: String, expected: String, passed: Bool) {
        self.location = location
        self.subject = subject
        self.expected = expected
        self.passed = passed
    }
}

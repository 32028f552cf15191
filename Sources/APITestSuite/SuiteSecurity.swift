package import APITestSecurity
package import APITestSupport

/// A suite's `security:` block: its settings (pins parsed, file paths absolute, resolved against the suite's
/// directory) and where the block is, for the problems found when the run builds its policy.
package struct SuiteSecurity: Sendable, Hashable {
    /// The block's settings.
    package var settings: SecuritySettings
    /// Where the `security` key is.
    package var location: SourceLocation

    /// A block with `settings` (the defaults: full verification, nothing pinned) at `location`.
    package init(settings: SecuritySettings = SecuritySettings(), location: SourceLocation) {
        self.settings = settings
        self.location = location
    }
}

import APITestSecurity
import APITestSupport

/// A suite's `security:` block: its settings (pins parsed, file paths absolute, resolved against the suite's
/// directory) and where the block is, for the problems found when the run builds its policy.
public struct SuiteSecurity: Sendable, Hashable {
    /// The block's settings.
    public var settings: SecuritySettings
    /// Where the `security` key is.
    public var location: SourceLocation

    /// A block with `settings` (the defaults: full verification, nothing pinned) at `location`.
    public init(settings: SecuritySettings = SecuritySettings(), location: SourceLocation) {
        self.settings = settings
        self.location = location
    }
}

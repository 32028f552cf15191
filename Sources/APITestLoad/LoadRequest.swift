package import APITestRunner
package import APITestSuite

// MARK: - LoadRequest

/// A load as a front end asks for it, the way `RunRequest` is a run: the suites, the load's shape as the command line
/// wrote it, the shard and how each request is sent. `LoadService.prepare(_:)` does the rest of the set-up.
package struct LoadRequest: Sendable {
    /// The selected suites: `--shard` splits the load, not the tests, so every generator picks from all of them.
    package var suites: [Suite]
    /// Every loaded suite: the preflight builds each one's policy, so a bad `security:` block stops the load even
    /// when the selection leaves its tests out.
    package var loaded: [Suite]
    /// The rate or virtual users, how long, the thresholds.
    package var shape: LoadShape
    /// `--shard K/N`: this generator runs 1/N of the rate or of the virtual users.
    package var shard: ShardSpec?
    /// How each request is sent and checked (the request, TLS and transport flags); the load sets the jobs.
    package var run: RunOptions
    /// Whether the single-pin warning applies to the command line's own pins (`--pin` given).
    package var warnsAboutSinglePin = false

    /// A load of `suites` (selected from `loaded`) of `shape`, its requests sent as `run` says.
    package init(suites: [Suite], loaded: [Suite], shape: LoadShape, run: RunOptions) {
        self.suites = suites
        self.loaded = loaded
        self.shape = shape
        self.run = run
    }
}

package import APITestRunner
package import APITestSuite

// MARK: - LoadPreparation

/// What `LoadService.prepare(_:)` makes of a `LoadRequest`: a load ready to run, or why there is nothing to run.
package enum LoadPreparation: Sendable {
    /// A load ready to run once the preflight's findings are reported (and do not stop it).
    case ready(Ready)
    /// No selected test can be picked (each is skipped or weighs 0): a load would pass every threshold having sent
    /// nothing.
    case nothingToPick
    /// This shard has no virtual user: `virtualUsers` are fewer than the shards.
    case shardWithoutUser(ShardSpec, virtualUsers: Int)

    /// A load ready to run.
    package struct Ready: Sendable {
        /// The suites whose tests are picked.
        package var suites: [Suite]
        /// The model (this shard's share), the thresholds and the run options.
        package var options: LoadOptions
        /// The checks before anything is sent; its policies are the ones the load uses.
        package var preflight: Preflight
    }
}

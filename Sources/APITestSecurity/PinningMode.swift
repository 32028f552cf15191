/// What must match for a server's certificate chain to be trusted (AFSecurityPolicy's `SSLPinningMode`): the one
/// mode enum of the suite's `pinning:`, the `--pinning`/`--mode` flags and the HTTP layer's policy.
public enum PinningMode: String, Sendable, Hashable, CaseIterable {
    /// The chain must be valid (trust store or `caFile`); nothing is pinned.
    case none
    /// As `none`, and the key of some certificate of the chain must match a pin (or a pinned certificate's key).
    case publicKey
    /// The pinned certificates are the only trust anchors.
    case certificate
}

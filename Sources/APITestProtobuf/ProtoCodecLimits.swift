/// The budgets that keep the codec bounded on untrusted input: how deeply messages (and `Struct`/`Value` trees)
/// may nest, and how many bytes a message may have.
package struct ProtoCodecLimits: Sendable, Hashable {
    /// The deepest nesting of messages accepted, either way (100, as the protobuf libraries default to).
    package var maximumDepth: Int
    /// The largest encoded message accepted, in bytes (decoding) or produced (encoding).
    package var maximumSize: Int

    /// Limits of `maximumDepth` levels and `maximumSize` bytes.
    package init(maximumDepth: Int = 100, maximumSize: Int = 64 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumSize = maximumSize
    }

    /// 100 levels and 64 MiB.
    package static let standard = ProtoCodecLimits()
}

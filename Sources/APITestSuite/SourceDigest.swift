import Synchronization

// MARK: - The digest of a suite file

/// The SHA-256 of a suite file's text, in lower-case hex, computed the first time it is read: a run's selection reads
/// it (for the JSON report's `suiteDigests`), `validate` and the other commands that never do skip it (about 30
/// instructions a byte where the CPU has no SHA instructions, as under callgrind). Until then it holds the text
/// (shared with the loader's, not copied), and lets it go once the digest is computed.
package final class SourceDigest: Sendable, Hashable {
    private enum State {
        /// The text whose digest has not been asked for yet.
        case pending(String)
        case computed(String)
    }

    private let state: Mutex<State>

    /// The digest of `text`, computed when first read.
    package init(of text: String) {
        state = Mutex(.pending(text))
    }

    /// A digest known already (`""` for a suite that was not loaded from a file).
    package init(hex: String = "") {
        state = Mutex(.computed(hex))
    }

    /// The digest, computed now if it has not been.
    package var hex: String {
        state.withLock { state in
            switch state {
            case .computed(let hex):
                return hex
            case .pending(let text):
                let hex = Self.sha256(text)
                state = .computed(hex)
                return hex
            }
        }
    }

    /// Whether the digest has been computed (or was given), for the tests that check it is not made unasked.
    package var isComputed: Bool {
        state.withLock { if case .computed = $0 { true } else { false } }
    }

    /// The SHA-256 of the UTF-8 bytes of `text` in hex; `""` if libcrypto cannot compute it.
    private static func sha256(_ text: String) -> String {
        guard let digest = try? Digests.digest("SHA256", Array(text.utf8)) else { return "" }
        return ExpressionFunctions.hex(digest)
    }

    // MARK: - Hashable

    package static func == (lhs: SourceDigest, rhs: SourceDigest) -> Bool {
        lhs === rhs || lhs.hex == rhs.hex
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hex)
    }
}

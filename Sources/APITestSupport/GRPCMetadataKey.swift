/// The one rule for the key of a gRPC call's request metadata, held by the suite's load-time check (`GRPCParser`)
/// and the transport's (`GRPCMetadata.requestFields`), which turn its `Problem` into their own errors: a key is
/// lower-case `a-z 0-9 - _ .`, and not a field gRPC or HTTP sets itself (`grpc-*`, a pseudo-header, or one of
/// `reservedKeys`).
package enum GRPCMetadataKey {
    /// What is wrong with a key.
    package enum Problem: Sendable, Equatable {
        /// The key is empty.
        case empty
        /// The key has a character outside `a-z 0-9 - _ .` (upper-case included: keys are lower-cased first).
        case invalidCharacter
        /// The key is a field of HTTP or of gRPC's protocol rather than the application's metadata.
        case reserved
    }

    /// Keys the call sets itself or HTTP/2 forbids.
    package static let reservedKeys: Set<String> = [
        "content-type", "te", "content-length", "connection", "keep-alive", "transfer-encoding", "upgrade",
        "proxy-connection", "host", "expect", "accept-encoding", "content-encoding",
    ]

    /// Whether `key` (lower-case) is a field of HTTP or of gRPC's protocol rather than the application's metadata.
    package static func isTransportField(_ key: String) -> Bool {
        key.hasPrefix("grpc-") || key.hasPrefix(":") || reservedKeys.contains(key)
    }

    /// What is wrong with the request metadata key `key` (lower-case), nil when nothing is.
    package static func problem(_ key: String) -> Problem? {
        guard !key.isEmpty else { return .empty }
        let allowed = key.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        guard allowed else { return .invalidCharacter }
        return isTransportField(key) ? .reserved : nil
    }
}

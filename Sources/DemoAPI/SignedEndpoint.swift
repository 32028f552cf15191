import Foundation
import HTTPTypes
import Hummingbird

// MARK: - SignedEndpoint

/// `ANY /signed/...`: a route that accepts only requests signed with HMAC-SHA256 (RFC 2104, over the demo's own
/// SHA-256): `X-Timestamp` is Unix seconds within 5 minutes of now, and `X-Signature` the lower-case hex HMAC with
/// the key `demo-signing-key` of `METHOD\nPATH\nTIMESTAMP` (the path as sent, without the query).
enum SignedEndpoint {
    /// The signing key.
    static let key = "demo-signing-key"
    /// How far the timestamp may be from the server's clock.
    static let skew: Double = 300

    static func routes() -> [Route] {
        [Route(nil, "/signed/**") { request in verify(request) }]
    }

    private static func verify(_ request: DemoRequest) -> Response {
        guard let timestamp = request.header(HTTPField.Name("X-Timestamp")!), let seconds = Double(timestamp) else {
            return refuse("X-Timestamp (Unix seconds) is missing")
        }
        guard abs(Date().timeIntervalSince1970 - seconds) <= skew else {
            return refuse("X-Timestamp is more than 5 minutes away from the server's clock")
        }
        guard let signature = request.header(HTTPField.Name("X-Signature")!) else {
            return refuse("X-Signature is missing")
        }
        let message = "\(request.method)\n\(request.rawPath)\n\(timestamp)"
        let expected = Hex.encode(hmacSHA256(key: Array(key.utf8), message: Array(message.utf8)))
        guard signature.lowercased() == expected else { return refuse("the signature does not match") }
        return Reply.json(["verified": true, "method": .string(request.method), "path": .string(request.rawPath)])
    }

    private static func refuse(_ reason: String) -> Response {
        Reply.json(["verified": false, "error": .string(reason)], status: .unauthorized)
    }

    /// HMAC-SHA256 (RFC 2104) over the demo's SHA-256.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block =
            key.count > 64
            ? {
                var hasher = SHA256()
                hasher.update(key)
                return hasher.finalize()
            }() : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

/// Stand-in texts rendered in place of the values a reproduce command must not hold (secrets) or cannot know
/// (captures not taken yet), so that the request is built by the runner's own `RequestBuilder` and the stand-ins
/// found again in what it built.
///
/// A stand-in is `APITEST`, a nonce of 12 random lower-case letters, the reference's number and `Q`: letters and
/// digits only, so JSON, form and percent-encoding, XML and URLs carry it unchanged. A filter (`lowercase`,
/// `base64Encode`) changes it; the runner's `ReproduceBuilder` finds that by rendering twice with two nonces.
package struct ReproduceSentinels: Sendable {
    /// What a stand-in stands for.
    package enum Reference: Sendable, Hashable {
        /// The value of the environment variable `name` (`{{ env.name }}`).
        case environment(String)
        /// A secret with no environment variable behind it, by its template name: a `--var` or variables-file
        /// value the runner treats as secret (`given`), or a value derived from a secret when the test ran (a
        /// capture from a secret).
        case derived(String, given: Bool)
        /// A capture that is taken only when the test runs (`apitest export curl`).
        case capture(String)
        /// The access token an `oauth2` setting obtains when the test runs.
        case accessToken
        /// A credential written in the suite, or a value a filter made of a secret, that the command takes from the
        /// shell variable `variable` (never a stand-in: the command writer makes these, with a note).
        case credential(String)
    }

    /// One piece of a rendered text: bytes as rendered, or a stand-in found in them.
    enum Part: Sendable, Hashable {
        /// Bytes as rendered.
        case literal([UInt8])
        /// A stand-in, by what it stands for.
        case reference(Reference)
    }

    /// The random letters every stand-in of this set carries.
    let nonce: String
    private var references: [Reference] = []
    private var numbers: [Reference: Int] = [:]

    /// A set of stand-ins with a fresh random nonce.
    package init() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        nonce = String(
            decoding: (0..<12).map { _ in letters[Int(generator.next(upperBound: UInt32(26)))] }, as: UTF8.self)
    }

    /// The stand-in of `reference`.
    package mutating func token(for reference: Reference) -> String {
        let number: Int
        if let known = numbers[reference] {
            number = known
        } else {
            number = references.count
            references.append(reference)
            numbers[reference] = number
        }
        return "APITEST\(nonce)\(number)Q"
    }

    /// Whether any stand-in of this set was made (a secret or a capture was rendered as one).
    var hasStandIns: Bool { !references.isEmpty }

    /// `bytes` split at every stand-in of this set.
    func parts(of bytes: [UInt8]) -> [Part] {
        let prefix = Array("APITEST\(nonce)".utf8)
        var parts: [Part] = []
        var literal: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == prefix[0], index + prefix.count < bytes.count,
                Array(bytes[index..<(index + prefix.count)]) == prefix
            {
                var end = index + prefix.count
                var number = 0
                var digits = 0
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39, digits < 9 {
                    number = number * 10 + Int(bytes[end] - 0x30)
                    end += 1
                    digits += 1
                }
                if digits > 0, end < bytes.count, bytes[end] == UInt8(ascii: "Q"), number < references.count {
                    if !literal.isEmpty { parts.append(.literal(literal)) }
                    literal = []
                    parts.append(.reference(references[number]))
                    index = end + 1
                    continue
                }
            }
            literal.append(bytes[index])
            index += 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// Whether `bytes` hold this set's nonce anywhere, in either case (a stand-in a filter changed but did not
    /// encode).
    func mentionsNonce(_ bytes: [UInt8]) -> Bool {
        let needle = Array(nonce.utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.count >= needle.count else { return false }
        for start in 0...(lowered.count - needle.count) where lowered[start] == needle[0] {
            if Array(lowered[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}

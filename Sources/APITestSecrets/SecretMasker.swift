import APITestHTTP
import APITestJSON
import Foundation

/// Replaces secret values with `•••••` in text bound for reports and terminals.
///
/// Secrets are the values of environment variables a suite uses (and variables derived from them), values a test
/// derives from them (captures and filter results), and whole credentials; the values of `Authorization`,
/// `Cookie`, `Set-Cookie` and `Proxy-Authorization` headers are masked whole.
///
/// Enumerating the encodings of a secret cannot keep up with what servers do to it (PHP writes `\/`, Python's
/// `json.dumps` writes `\u00e4`, one server percent-encodes a space and JSON-escapes a quote in the same value).
/// So the masker decodes the text being shown instead: percent-encoding, JSON and JavaScript string escapes and
/// XML/HTML character references are undone (up to three times, for text escaped inside text), each decoded byte
/// remembering where it came from, and a secret found in the decoded text masks the original bytes it came from.
/// Base64 cannot be undone in place, so a secret inside base64 (a `Basic` credential, a `base64Encode` result) is
/// found by the three base64 spellings its middle has, whatever its offset in the encoded data, and the whole
/// base64 token is masked; so is a secret inside base64 of what apitest sent (a form or JSON body echoed in base64),
/// by the spellings apitest's own encoders give it (``sentSpellings(of:)``).
package struct SecretMasker: Sendable {
    /// What a masked value is replaced with.
    package static let mask = "•••••"
    /// Header fields whose values are always masked.
    package static let sensitiveHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Secret texts, longest first.
    package let secrets: [String]
    /// The UTF-8 bytes searched for in decoded text: each secret, with spaces as `+` (form encoding), in upper and
    /// lower case, in hex, and as its UTF-8 bytes misread as Latin-1 or Windows-1252 (``misreadSpellings(of:)``).
    let needles: [[UInt8]]
    /// The base64 spellings (standard and URL-safe) of each secret's middle at the three byte alignments, and of the
    /// middles of its sent spellings (``sentSpellings(of:)``).
    let base64Cores: [[UInt8]]

    /// A masker for `secrets` (empty texts are ignored).
    package init(secrets: [String]) {
        let unique = Set(secrets.filter { !$0.isEmpty })
        self.secrets = unique.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        var needles = Set<[UInt8]>()
        var cores = Set<[UInt8]>()
        for secret in unique {
            let bytes = Array(secret.utf8)
            needles.insert(bytes)
            if bytes.contains(UInt8(ascii: " ")) {
                needles.insert(bytes.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "+") : $0 })
            }
            // A server that upper- or lower-cases what it echoes, or writes it in hex (either case).
            needles.insert(Array(secret.uppercased().utf8))
            needles.insert(Array(secret.lowercased().utf8))
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            needles.insert(Array(hex.utf8))
            needles.insert(Array(hex.uppercased().utf8))
            // A server that reads the UTF-8 bytes it got as Latin-1 or Windows-1252 and echoes them (httpbin's
            // `/headers`: `é` shows as `Ã©`, or `\u00c3\u00a9` in JSON, which the decoder undoes to `Ã©`).
            needles.formUnion(Self.misreadSpellings(of: bytes))
            cores.formUnion(Self.base64Cores(of: bytes))
            // The decoder undoes apitest's own encodings in place, but not under base64: a server that echoes a
            // form or JSON body (or a query string) in base64 shows the secret as apitest sent it there.
            for spelling in Self.sentSpellings(of: secret) { cores.formUnion(Self.base64Cores(of: spelling)) }
        }
        self.needles = needles.sorted { $0.count > $1.count }
        self.base64Cores = cores.sorted { $0.count > $1.count }
        self.longestSecretLength = self.secrets.first?.utf8.count ?? 0
    }

    /// The length in bytes of the longest secret.
    package let longestSecretLength: Int

    /// How many decoding rounds the masker runs on a text (text escaped inside text, up to three times).
    static let decodingRounds = 3
    /// The most bytes one byte of a secret can take in a text the masker still reads it from: the longest escape it
    /// undoes (a 12-byte character reference such as `&#x000041;`, or a `\u` surrogate pair) at each decoding round.
    package static let longestEncodedByte = 12 * 12 * 12

    /// This masker with `more` secrets (values derived from secrets during a test).
    package func adding(_ more: [String]) -> SecretMasker {
        let new = more.filter { !$0.isEmpty && !secrets.contains($0) }
        return new.isEmpty ? self : SecretMasker(secrets: secrets + new)
    }

    // MARK: - Masking

    /// `text` with every occurrence of every secret, in any of the encodings above, replaced.
    package func mask(_ text: String) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let ranges = secretRanges(in: bytes, stopAtFirst: false)
        guard !ranges.isEmpty else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for range in ranges {
            result += bytes[position..<range.lowerBound]
            result += Self.mask.utf8
            position = range.upperBound
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` masked, or `nil`.
    package func mask(_ text: String?) -> String? {
        text.map { mask($0) }
    }

    /// Whether `text` holds a secret in any of the encodings `mask` undoes: a value computed from such text (a
    /// filter's result, a capture) is secret too.
    package func containsSecret(_ text: String) -> Bool {
        guard !secrets.isEmpty, !text.isEmpty else { return false }
        return !secretRanges(in: Array(text.utf8), stopAtFirst: true).isEmpty
    }

    /// A header value as reports may show it.
    package func maskHeader(name: String, value: String) -> String {
        Self.sensitiveHeaders.contains(name.lowercased()) ? Self.mask : mask(value)
    }

    // MARK: - Finding secrets

    /// The byte ranges of `bytes` that hold a secret, sorted and merged.
    private func secretRanges(in bytes: [UInt8], stopAtFirst: Bool) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var view = DecodedBytes(identity: bytes)
        for round in 0...Self.decodingRounds {
            if round > 0 {
                guard let decoded = view.decodedOnce() else { break }
                view = decoded
            }
            for needle in needles {
                for match in Self.occurrences(of: needle, in: view.bytes) {
                    found.append(view.origin(of: match))
                    if stopAtFirst { return found }
                }
            }
            for core in base64Cores {
                for match in Self.occurrences(of: core, in: view.bytes) {
                    found.append(view.origin(of: Self.base64Token(around: match, in: view.bytes)))
                    if stopAtFirst { return found }
                }
            }
            // Base64 wrapped into lines (MIME, PEM: 64 or 76 columns) can cut a secret's spelling at a line break:
            // the cores are looked for again with the breaks between base64 characters taken out.
            if !base64Cores.isEmpty, view.bytes.contains(UInt8(ascii: "\n")) {
                let unwrapped = Self.unwrappingLines(view.bytes)
                for core in base64Cores {
                    for match in Self.occurrences(of: core, in: unwrapped.bytes) {
                        let token = Self.base64Token(around: match, in: unwrapped.bytes)
                        let start = unwrapped.origins[token.lowerBound]
                        let end = unwrapped.origins[token.upperBound - 1] + 1
                        found.append(view.origin(of: start..<end))
                        if stopAtFirst { return found }
                    }
                }
            }
        }
        return Self.merged(found)
    }

    /// `bytes` without the line breaks (`\n` or `\r\n`) that have a base64 character on both sides, and the offset
    /// in `bytes` of each byte kept.
    static func unwrappingLines(_ bytes: [UInt8]) -> (bytes: [UInt8], origins: [Int]) {
        var kept: [UInt8] = []
        var origins: [Int] = []
        kept.reserveCapacity(bytes.count)
        origins.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n"), let last = kept.last, isBase64(last) {
                let next =
                    byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                    ? index + 2 : index + 1
                if byte == UInt8(ascii: "\n") || next == index + 2, next < bytes.count, isBase64(bytes[next]) {
                    index = next
                    continue
                }
            }
            kept.append(byte)
            origins.append(index)
            index += 1
        }
        return (kept, origins)
    }

    /// The start offsets of `needle` in `haystack`, not overlapping.
    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Range<Int>] {
        guard let first = needle.first, needle.count <= haystack.count else { return [] }
        var result: [Range<Int>] = []
        haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = 0
                let last = hay.count - pin.count
                while index <= last {
                    guard let base = hay.baseAddress,
                        let hit = memchr(base + index, Int32(first), last - index + 1)
                    else { return }
                    let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + start, pin.baseAddress!, pin.count) == 0 {
                        result.append(start..<(start + pin.count))
                        index = start + pin.count
                    } else {
                        index = start + 1
                    }
                }
            }
        }
        return result
    }

    /// Sorted ranges with overlapping and touching ones joined.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    // MARK: - Base64

    /// The base64 spellings of the middle of `secret` at the three alignments it can have inside encoded data:
    /// skipping 0, 1 or 2 leading bytes and keeping whole 3-byte groups, at least one. Standard and URL-safe.
    static func base64Cores(of secret: [UInt8]) -> [[UInt8]] {
        var cores: [[UInt8]] = []
        for skip in 0..<3 where secret.count - skip >= 3 {
            let groups = (secret.count - skip) / 3
            let middle = Data(secret[skip..<(skip + groups * 3)])
            let standard = Array(middle.base64EncodedString().utf8)
            cores.append(standard)
            let urlSafe = standard.map { byte -> UInt8 in
                byte == UInt8(ascii: "+") ? UInt8(ascii: "-") : byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte
            }
            if urlSafe != standard { cores.append(urlSafe) }
        }
        return cores
    }

    /// The spellings other than its own that `secret` has in what apitest sends: percent-encoded (form bodies, query
    /// parameters, the OAuth2 `Basic` pair: RFC 3986's unreserved characters kept) and JSON-escaped (JSON bodies).
    /// Empty for a secret that both leave as it is.
    static func sentSpellings(of secret: String) -> [[UInt8]] {
        let bytes = Array(secret.utf8)
        var spellings: [[UInt8]] = []
        let percent = Array(PercentEncoding.encode(secret).utf8)
        if percent != bytes { spellings.append(percent) }
        let json = Array(JSONWriter.quoted(secret).utf8.dropFirst().dropLast())
        if json != bytes, json != percent { spellings.append(json) }
        return spellings
    }

    /// Whether `byte` is a base64 character (standard or URL-safe alphabet, padding aside).
    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            return true
        default: return false
        }
    }

    /// `range` widened to the whole base64 token around it (letters, digits, `+/-_` and trailing `=`).
    static func base64Token(around range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        var start = range.lowerBound
        while start > 0, isBase64(bytes[start - 1]) { start -= 1 }
        var end = range.upperBound
        while end < bytes.count, isBase64(bytes[end]) { end += 1 }
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        return start..<end
    }
}

import Testing

@testable import APITestSuite

/// The short map keys' texts, kept by their bytes (issue 38): a key read again gives the same text, keys that fall
/// on one slot replace each other without mixing, and any bytes give what `String(decoding:as:)` gives.
@Suite("Key text cache")
struct KeyTextCacheTests {
    private func text(_ cache: KeyTextCache, _ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(cache.text(of:))
    }

    @Test func everyKeyReadsAsItsBytes() {
        let cache = KeyTextCache()
        var keys = ["", "a", "name", "request", "expect", "json", "$.name", "0123456789abcdef", "0123456789abcdefg"]
        keys += (0..<500).map { "k\($0)" } + ["caf\u{E9}", "\u{1F600}x"]
        // Twice over: the second read finds what the first kept, or a key that replaced it.
        for _ in 0..<2 {
            for key in keys { #expect(text(cache, Array(key.utf8)) == key) }
        }
    }

    @Test func keysOfOneWordPrefixAreTold() {
        let cache = KeyTextCache()
        // Same first bytes and zero padding: told apart by their length.
        #expect(text(cache, [0x61]) == "a")
        #expect(text(cache, [0x61, 0]) == "a\u{0}")
        #expect(text(cache, [0x61]) == "a")
        #expect(text(cache, Array("0123456789abcdeX".utf8)) == "0123456789abcdeX")
        #expect(text(cache, Array("0123456789abcdeY".utf8)) == "0123456789abcdeY")
    }

    @Test func invalidUTF8IsRepairedAsStringDecodingDoes() {
        let cache = KeyTextCache()
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(text(cache, bytes) == String(decoding: bytes, as: UTF8.self))
        #expect(text(cache, bytes) == "a\u{FFFD}b")
    }
}

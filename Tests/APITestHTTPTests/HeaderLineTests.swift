import CCurlShim
import Testing

@testable import APITestHTTP

/// The header lines handed to libcurl (`CurlMultiLoop.appendField`): `name: value`, `name;` for an empty value, in
/// order, byte for byte, as the interpolated strings made them.
@Suite struct HeaderLineTests {
    /// The lines of `list`, in order.
    private func lines(_ list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var lines: [String] = []
        var node = list
        while let current = node {
            lines.append(String(cString: current.pointee.data))
            node = current.pointee.next
        }
        return lines
    }

    @Test func fieldsBecomeLinesInOrder() {
        let fields = [
            ("User-Agent", "apitest/0.1.0"), ("X-Empty", ""), ("Accept", "application/json; q=0.9"),
            ("X-Unicode", "café ✓"), ("X-Long", String(repeating: "v", count: 5_000)),
        ]
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in fields { list = CurlMultiLoop.appendField(name, value, to: list) }
        defer { curl_slist_free_all(list) }
        #expect(
            lines(list) == [
                "User-Agent: apitest/0.1.0", "X-Empty;", "Accept: application/json; q=0.9", "X-Unicode: café ✓",
                "X-Long: " + String(repeating: "v", count: 5_000),
            ])
    }

    @Test func aValueKeepsItsSpacesAndAListGrowsAtItsEnd() {
        let first = CurlMultiLoop.appendField("X-First", "1", to: nil)
        let list = CurlMultiLoop.appendField("X-Spaced", "  spaced value  ", to: first)
        defer { curl_slist_free_all(list) }
        #expect(lines(list) == ["X-First: 1", "X-Spaced:   spaced value  "])
    }
}

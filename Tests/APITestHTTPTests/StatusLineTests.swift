import Testing

@testable import APITestHTTP

/// The status code and reason phrase read from a raw status line, in place.
@Suite struct StatusLineTests {
    private func parse(_ line: String) -> (Int, String) {
        Array(line.utf8).withUnsafeBytes { TaskDelegate.statusAndReason(of: $0) }
    }

    @Test func readsTheCodeAndTheWholeReason() {
        #expect(parse("HTTP/1.1 200 OK") == (200, "OK"))
        #expect(parse("HTTP/1.1 404 Not  Found") == (404, "Not  Found"))
        #expect(parse("HTTP/2 204") == (204, ""))
        #expect(parse("HTTP/1.0   503   Service Unavailable") == (503, "Service Unavailable"))
    }

    @Test func aMissingOrMalformedCodeIsZero() {
        #expect(parse("HTTP/1.1") == (0, ""))
        #expect(parse("HTTP/1.1 2x0 Odd") == (0, "Odd"))
        #expect(parse("HTTP/1.1 +200 OK") == (0, "OK"))
        #expect(parse("HTTP/1.1 9999999999999 Big") == (0, "Big"))
    }
}

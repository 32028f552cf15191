import APITestSupport
import Foundation
import Testing

/// The byte-level string helpers the per-request paths use: they must give what the `String` operations they
/// replace give, for native, small, bridged and non-ASCII strings.
@Suite struct StringBytesTests {
    static let samples: [String] = [
        "", "a", "Content-Type", "content-type", "CONTENT-TYPE", "Content-Typf", "content_type", "x\r", "x-",
        "ünïcödé ✓", "ÜNÏCÖDÉ ✓", String(repeating: "Long-Header-Name-", count: 8),
        NSString(string: "Bridged-Name").description, NSString(string: "bridged-name").description,
    ]

    @Test func caseInsensitiveEqualityFoldsOnlyASCIILetters() {
        for a in Self.samples {
            for b in Self.samples {
                let expected =
                    a.utf8.count == b.utf8.count
                    && zip(a.utf8, b.utf8).allSatisfy { x, y in
                        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
                    }
                #expect(a.caseInsensitiveEquals(b) == expected, "\(a) vs \(b)")
            }
        }
        // A carriage return is not a dash, nor an underscore a DEL, though they differ only by 0x20.
        #expect(!"x\r".caseInsensitiveEquals("x-"))
        #expect(!"a_".caseInsensitiveEquals("a\u{7F}"))
        #expect("Bridged-Name".caseInsensitiveEquals(NSString(string: "BRIDGED-NAME").description))
    }

    @Test func bytesAreTheUTF8View() {
        for sample in Self.samples {
            #expect(sample.withUTF8Bytes { Array($0) } == Array(sample.utf8))
        }
    }

    @Test func concatenationIsTheJoinedText() {
        #expect(String.concatenating() == "")
        #expect(String.concatenating("a", "", "b") == "ab")
        let pieces = Self.samples
        #expect(
            String.concatenating(pieces[0], pieces[9], " › ", pieces[11], pieces[12]) == pieces[0] + pieces[9] + " › "
                + pieces[11] + pieces[12])
    }
}

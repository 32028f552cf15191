import APITestSupport
import Testing

@testable import APITestSuite

/// Sizes as `defaults.maxResponseSize` and `--max-response-size` take them.
@Suite("Byte sizes")
struct ByteSizeTests {
    @Test(arguments: [
        ("0", 0), ("1048576", 1_048_576), ("200MB", 200_000_000), ("64MiB", 64 << 20), ("1.5GB", 1_500_000_000),
        ("512 KiB", 512 << 10), (" 2gib ", 2 << 30), ("100B", 100), ("1tb", 1_000_000_000_000), ("1kb", 1000),
        ("0.5KiB", 512),
    ])
    func parses(text: String, bytes: Int) throws {
        #expect(try ByteSize(parsing: text).bytes == bytes)
    }

    @Test(arguments: ["", "big", "-1", "1e6", "12XB", "MB", "1.2.3MB", "5 M", "99999999999TB"])
    func rejects(text: String) {
        #expect(throws: ByteSize.ParseError.self) { try ByteSize(parsing: text) }
    }

    @Test func describesWithTheLargestExactUnit() {
        #expect(ByteSize(bytes: 64 << 20).description == "64 MiB (67108864 bytes)")
        #expect(ByteSize(bytes: 200_000_000).description == "200 MB (200000000 bytes)")
        #expect(ByteSize(bytes: 1500).description == "1500 bytes")
        #expect(ByteSize(bytes: 1).description == "1 byte")
    }

    @Test func suiteDefaultsTakeASize() throws {
        let yaml = { (value: String) in
            "defaults: {maxResponseSize: \(value)}\ntests:\n  - {name: t, request: {url: http://h/}}\n"
        }
        #expect(try loadSuite(yaml("200MB")).defaults.maxResponseSize == 200_000_000)
        #expect(try loadSuite(yaml("1048576")).defaults.maxResponseSize == 1_048_576)
        #expect(try loadSuite(yaml("0")).defaults.maxResponseSize == 0)
        #expect(try loadSuite(yaml("'64 MiB'")).defaults.maxResponseSize == 64 << 20)
        #expect(try loadSuite("tests:\n  - {name: t, request: {url: http://h/}}\n").defaults.maxResponseSize == nil)
    }

    @Test func badSizesAreLocatedErrors() {
        #expect(
            errors("defaults:\n  maxResponseSize: lots\ntests:\n  - {name: t, request: {url: http://h/}}\n") == [
                "suites/test.yaml:2:20: error: invalid size 'lots'; use a number of bytes or a number with a unit "
                    + "(500KB, 200MB, 64MiB, 2GiB) for 'maxResponseSize'"
            ])
        #expect(
            errors("defaults:\n  maxResponseSize: -5\ntests:\n  - {name: t, request: {url: http://h/}}\n") == [
                "suites/test.yaml:2:20: error: 'maxResponseSize' cannot be negative, found -5"
            ])
        #expect(
            errors("defaults:\n  maxResponseSize: [1]\ntests:\n  - {name: t, request: {url: http://h/}}\n") == [
                "suites/test.yaml:2:20: error: expected a size (a number of bytes, or like 200MB or 64MiB) for "
                    + "'maxResponseSize', found a list"
            ])
    }
}

import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

@Suite("Built-in values: now.iso, now.date, random.hex")
struct UTCTimestampTests {
    @Test(
        "Known instants format as ISO-8601 in UTC, rounded to the millisecond",
        arguments: [
            (0.0, "1970-01-01T00:00:00.000Z", "1970-01-01"),
            (1_700_000_000.123_9, "2023-11-14T22:13:20.124Z", "2023-11-14"),
            (1_709_210_096.789, "2024-02-29T12:34:56.789Z", "2024-02-29"),
            (951_782_400.0, "2000-02-29T00:00:00.000Z", "2000-02-29"),
            (4_102_444_799.999_4, "2099-12-31T23:59:59.999Z", "2099-12-31"),
            (1_700_000_000.999_6, "2023-11-14T22:13:21.000Z", "2023-11-14"),
            (-0.000_6, "1969-12-31T23:59:59.999Z", "1969-12-31"),
            (-1.5, "1969-12-31T23:59:58.500Z", "1969-12-31"),
        ])
    func knownInstants(seconds: Double, dateTime: String, date: String) {
        let timestamp = UTCTimestamp(Date(timeIntervalSince1970: seconds))
        #expect(timestamp.dateTimeText == dateTime)
        #expect(timestamp.dateText == date)
    }

    @Test("The texts match ISO8601DateFormatter's for instants across four centuries")
    func matchesFoundation() {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            // Sub-millisecond parts too (away from the half-millisecond ties), to check the rounding.
            let fraction = Double.random(in: 0.05...0.45, using: &generator) * (Bool.random() ? 1 : -1)
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + fraction) / 1000)
            let timestamp = UTCTimestamp(date)
            #expect(timestamp.dateTimeText == full.string(from: date), "\(milliseconds) ms")
            #expect(timestamp.dateText == dateOnly.string(from: date), "\(milliseconds) ms")
        }
    }

    @Test("random.hex is 16 lower-case hex digits, zero-padded like %016llx")
    func hex() {
        #expect(TemplateContext.hex16(0) == "0000000000000000")
        #expect(TemplateContext.hex16(0xab) == "00000000000000ab")
        #expect(TemplateContext.hex16(UInt64.max) == "ffffffffffffffff")
        for value in [UInt64(1), 0x1234_5678_9abc_def0, 0xfff, UInt64.random(in: 0...UInt64.max)] {
            #expect(TemplateContext.hex16(value) == String(format: "%016llx", value))
        }
    }

    @Test("setBuiltins sets now.iso, now.date and now.unixMs for the same instant")
    func builtins() throws {
        var context = TemplateContext()
        context.setBuiltins(now: Date(timeIntervalSince1970: 1_709_210_096.789))
        let template = try Template(
            parsing: "{{ now.iso }} {{ now.date }} {{ now.unixMs }} {{ now.unix }}",
            location: SourceLocation(file: "f.yaml", line: 1, column: 1))
        #expect(try template.render(context) == "2024-02-29T12:34:56.789Z 2024-02-29 1709210096789 1709210096")
    }
}

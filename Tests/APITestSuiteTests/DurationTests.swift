import APITestSupport
import Testing

@Suite("Durations")
struct DurationTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("10s", .seconds(10)), ("1.5s", .milliseconds(1500)),
        ("2m", .seconds(120)), ("1h", .seconds(3600)), ("10", .seconds(10)), ("0.25", .milliseconds(250)),
        (" 3 s ", .seconds(3)), (".5s", .milliseconds(500)), ("0ms", .zero),
    ])
    func parses(text: String, expected: Duration) throws {
        #expect(try DurationParser.parse(text) == expected)
    }

    @Test(arguments: ["", "10x", "s", "-1s", "1.2.3s", "1e3s", "ten seconds", "5 min", "1m30s", "∞"])
    func rejects(text: String) {
        #expect(throws: DurationParser.ParseError.self) { try DurationParser.parse(text) }
        do {
            _ = try DurationParser.parse(text)
        } catch {
            #expect(error.message.hasPrefix("invalid duration '\(text)'"))
        }
    }

    @Test func fromSeconds() throws {
        #expect(try DurationParser.duration(fromSeconds: 1.5) == .milliseconds(1500))
        #expect(throws: DurationParser.ParseError.self) { try DurationParser.duration(fromSeconds: -1) }
        #expect(throws: DurationParser.ParseError.self) { try DurationParser.duration(fromSeconds: .infinity) }
        #expect(throws: DurationParser.ParseError.self) { try DurationParser.duration(fromSeconds: 1e12) }
        #expect(throws: DurationParser.ParseError.self) { try DurationParser.parse("99999999999999999999h") }
        #expect(DurationFormatter.format(.seconds(Int64.max)).hasSuffix(" h"))
    }

    @Test(arguments: [
        (Duration.microseconds(850), "850 µs"), (.microseconds(3400), "3.4 ms"), (.milliseconds(34), "34 ms"),
        (.milliseconds(999), "999 ms"), (.milliseconds(1234), "1.2 s"), (.seconds(59), "59.0 s"),
        (.seconds(125), "2 min 5 s"), (.seconds(3720), "1 h 2 min"), (.zero, "0 µs"),
    ])
    func formats(duration: Duration, expected: String) {
        #expect(DurationFormatter.format(duration) == expected)
    }
}

import APITestHTTP
import APITestResults
import APITestRunner
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Testing

@testable import APITestLoad

/// The open model's arrivals at their boundaries, the rates a load accepts, and the rate it reports.
@Suite struct LoadRateTests {
    /// Every iteration of `schedule` after the first: not due a microsecond before its start, due a microsecond after.
    static func expectExactBoundaries(_ schedule: LoadSchedule, _ name: String) throws {
        for k in 1..<schedule.totalIterations {
            let offset = try #require(schedule.startOffset(ofIteration: k))
            #expect(schedule.iterationsDue(by: offset - .microseconds(1)) == k, "\(name): iteration \(k), before")
            #expect(schedule.iterationsDue(by: offset + .microseconds(1)) == k + 1, "\(name): iteration \(k), after")
        }
    }

    @Test func eachIterationIsDueFromItsStartAndNotBefore() throws {
        // A ramp up (N(t) = 25 t²), a plateau, a ramp down, and a ramp that starts above zero: the integral of the
        // rate (`done + rate·t + slope·t²/2`) decides, so a wrong term, rounding or count is off by one somewhere.
        try Self.expectExactBoundaries(
            LoadSchedule(stages: [.init(duration: .seconds(2), target: 100)], startRate: 0), "ramp up")
        try Self.expectExactBoundaries(
            LoadSchedule(
                stages: [
                    .init(duration: .seconds(2), target: 100), .init(duration: .seconds(1), target: 100),
                    .init(duration: .seconds(2), target: 0),
                ], startRate: 0), "up, plateau, down")
        try Self.expectExactBoundaries(
            LoadSchedule(stages: [.init(duration: .seconds(3), target: 10)], startRate: 40), "ramp down from 40")
        try Self.expectExactBoundaries(LoadSchedule(rate: 7, duration: .seconds(2)), "constant")
        // Iteration 0 is due at once; the count never passes the total.
        let ramp = LoadSchedule(stages: [.init(duration: .seconds(2), target: 100)], startRate: 0)
        #expect(ramp.iterationsDue(by: .zero) == 1)
        #expect(ramp.iterationsDue(by: .seconds(2)) == 100)
        #expect(ramp.iterationsDue(by: .seconds(2) - .microseconds(1)) == 100)
    }

    @Test func absurdRatesAreRefused() {
        #expect(LoadSchedule.rate(parsing: "2000/s") == 2000)
        #expect(LoadSchedule.rate(parsing: "2000") == 2000)
        #expect(LoadSchedule.rate(parsing: "120/m") == 2)
        #expect(LoadSchedule.rate(parsing: "3/h") == 3.0 / 3600)
        #expect(LoadSchedule.rate(parsing: "1/h") == LoadSchedule.minimumRate)
        #expect(LoadSchedule.rate(parsing: "0") == 0)
        #expect(LoadSchedule.rate(parsing: "1000000/s") == 1_000_000)
        // `1e-300/s` started one iteration and reported "394.8/s over 0.00 s".
        for absurd in [
            "1e-300/s", "1e-300", "0.5/h", "0.0001/s", "1000001/s", "1e308", "inf", "nan", "-1/s", "", "x/s",
        ] {
            #expect(LoadSchedule.rate(parsing: absurd) == nil, "\(absurd)")
        }
    }

    @Test func theReportedRateIsOverThePlannedDuration() async throws {
        let suite = try SuiteLoader(environment: [:]).load(
            source: "tests:\n  - name: one\n    request: {url: 'http://h.test/'}\n", file: "/tmp/rate.yaml")
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        // One iteration an hour for half a second: one iteration, over half a second, not over its own instant.
        let options = LoadOptions(
            model: .open(LoadSchedule(rate: 1.0 / 3600, duration: .milliseconds(500))), maxInFlight: 4,
            run: RunOptions())
        let result = await LoadRunner(transport: transport, options: options).run([suite])
        #expect(result.counts.completed == 1)
        #expect(result.seconds >= 0.5, "\(result.seconds) s")
        #expect(result.achievedRate <= 2, "\(result.achievedRate)/s")
        let threshold = try LoadThreshold(parsing: "rate>100/s")
        #expect(result.evaluate([threshold]).allSatisfy { !$0.holds })
    }
}

import APITestResults
import APITestSupport
import APITestTestSupport
import Foundation
import Testing

@testable import APITestLoad

/// The open model's arrival schedule, the weighted picker and the HDR histogram the load mode records into.
@Suite struct LoadScheduleTests {
    @Test func aConstantRateStartsOneIterationEveryIntervalFromZero() throws {
        let schedule = LoadSchedule(rate: 10, duration: .seconds(1))
        #expect(schedule.totalIterations == 10)
        #expect(schedule.startOffset(ofIteration: 0) == .zero)
        #expect(schedule.startOffset(ofIteration: 1) == .milliseconds(100))
        #expect(schedule.startOffset(ofIteration: 9) == .milliseconds(900))
        #expect(schedule.startOffset(ofIteration: 10) == nil)
        #expect(schedule.iterationsDue(by: .zero) == 1)
        #expect(schedule.iterationsDue(by: .milliseconds(99)) == 1)
        #expect(schedule.iterationsDue(by: .milliseconds(100)) == 2)
        #expect(schedule.iterationsDue(by: .milliseconds(950)) == 10)
        #expect(schedule.iterationsDue(by: .seconds(5)) == 10)
        // A fractional count rounds up: iteration k starts at k/rate while that is inside the duration.
        #expect(LoadSchedule(rate: 2.5, duration: .seconds(1)).totalIterations == 3)
        #expect(LoadSchedule(rate: 2000, duration: .seconds(60)).totalIterations == 120_000)
    }

    @Test func aRampStartsIterationsWhereTheRatesIntegralReachesThem() throws {
        // From 0 to 100/s over 2 s: N(t) = 25 t², 100 iterations in all; iteration k at sqrt(k / 25).
        let ramp = LoadSchedule(stages: [.init(duration: .seconds(2), target: 100)], startRate: 0)
        #expect(ramp.totalIterations == 100)
        #expect(ramp.peakRate == 100)
        for k in [0, 1, 25, 64, 99] {
            let expected = (Double(k) / 25).squareRoot()
            let offset = try #require(ramp.startOffset(ofIteration: k))
            #expect(abs(offset.inSeconds - expected) < 1e-6, "iteration \(k)")
            // Due exactly from its start on, not before.
            #expect(ramp.iterationsDue(by: offset + .microseconds(1)) >= k + 1)
        }
        #expect(ramp.startOffset(ofIteration: 100) == nil)
        // Stages chain: up to 100/s in 2 s, 100/s for 1 s, down to 0 in 2 s: 100 + 100 + 100 iterations.
        let stages = LoadSchedule(
            stages: [
                .init(duration: .seconds(2), target: 100), .init(duration: .seconds(1), target: 100),
                .init(duration: .seconds(2), target: 0),
            ], startRate: 0)
        #expect(stages.totalIterations == 300)
        #expect(stages.duration == .seconds(5))
        let plateau = try #require(stages.startOffset(ofIteration: 150))
        #expect(abs(plateau.inSeconds - 2.5) < 1e-6)
        var previous = Duration.zero
        for k in 0..<300 {
            let offset = try #require(stages.startOffset(ofIteration: k))
            #expect(offset >= previous && offset <= .seconds(5))
            previous = offset
        }
    }

    @Test func weightsAreHonouredAndSpreadOut() {
        let picker = WeightedPicker(weights: [3, 1])
        let picks = (0..<8).map { _ in picker.next() }
        #expect(picks == [0, 0, 1, 0, 0, 0, 1, 0])
        let even = WeightedPicker(weights: [1, 1, 1])
        #expect((0..<6).map { _ in even.next() } == [0, 1, 2, 0, 1, 2])
    }

    /// Over every whole cycle each test is picked its weight's times, and after any number of picks each test's
    /// count is within one of its share: spread out, not in runs, for uneven weights and a suite of thousands.
    @Test(arguments: [[5, 2, 1, 1], [1, 7, 3], Array(repeating: 1, count: 500), (1...120).map { $0 % 7 + 1 }])
    func everyTestGetsItsShareAtEveryPoint(weights: [Int]) {
        let picker = WeightedPicker(weights: weights)
        let total = weights.reduce(0, +)
        var counts = Array(repeating: 0, count: weights.count)
        for pick in 1...(3 * total) {
            counts[picker.next()] += 1
            for (test, weight) in weights.enumerated() {
                let share = Double(pick * weight) / Double(total)
                #expect(abs(Double(counts[test]) - share) <= 1, "test \(test) after \(pick) picks")
                if abs(Double(counts[test]) - share) > 1 { return }
            }
            if pick % total == 0 {
                #expect(counts == weights.map { $0 * pick / total }, "after \(pick / total) cycles")
            }
        }
    }

    @Test func histogramsMergeExactly() throws {
        // Three generators' samples merged hold what one histogram fed every sample holds: every percentile equal.
        var generator = SplitMix64(seed: 20)
        var parts = [LatencyHistogram(), LatencyHistogram(), LatencyHistogram()]
        var whole = LatencyHistogram()
        for index in 0..<30_000 {
            // Skewed: mostly around 1 ms, a tail up to 2 s.
            let micros =
                index % 100 == 0
                ? UInt64.random(in: 100_000...2_000_000, using: &generator)
                : UInt64.random(in: 200...3_000, using: &generator)
            parts[index % 3].record(microseconds: micros)
            whole.record(microseconds: micros)
        }
        var merged = LatencyHistogram()
        for part in parts { merged.merge(part) }
        #expect(merged.count == 30_000)
        for percentile in [50.0, 90, 95, 99, 99.9, 100] {
            #expect(merged.percentile(percentile) == whole.percentile(percentile), "p\(percentile)")
        }
        #expect(merged.max == whole.max)
        // 1 % of the samples are the tail: p99 is still a fast one (within the bucket of 3 ms), p99.5 a slow one.
        #expect((2_990...3_005).contains(whole.percentile(99)))
        #expect(whole.percentile(99.5) >= 100_000)
        // The encoded form records back into the same buckets.
        let encoded = try JSONEncoder().encode(merged)
        let decoded = try JSONDecoder().decode(LatencyHistogram.self, from: encoded)
        #expect(decoded.buckets.map(\.value) == merged.buckets.map(\.value))
        #expect(decoded.buckets.map(\.count) == merged.buckets.map(\.count))
        #expect(decoded.percentile(99.9) == whole.percentile(99.9))
    }

    @Test func durationsBecomeMicrosecondsRoundedUp() {
        #expect(LatencyHistogram.microseconds(.milliseconds(20)) == 20_000)
        #expect(LatencyHistogram.microseconds(.nanoseconds(1_500)) == 2)
        #expect(LatencyHistogram.microseconds(.seconds(-1)) == 0)
        var histogram = LatencyHistogram()
        histogram.record(.nanoseconds(10))
        #expect(histogram.min == 1)
    }
}

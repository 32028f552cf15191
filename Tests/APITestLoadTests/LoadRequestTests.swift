import APITestHTTP
import APITestResults
import APITestRunner
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Testing

@testable import APITestLoad

/// A load request's set-up in `LoadService.prepare(_:)` (what `apitest load` did in the command line): the shape's
/// model and its problems, the shard's share, the connections, the thresholds and the preflight; and the prepared
/// load run on a scripted transport.
@Suite struct LoadRequestTests {
    static func suites(_ yaml: String) throws -> [Suite] {
        [try SuiteLoader(environment: [:]).load(source: yaml, file: "/tmp/load-request.yaml")]
    }

    static let oneTest = "tests:\n  - name: one\n    request: {url: 'http://h.test/'}\n"

    static func request(_ shape: LoadShape, yaml: String = oneTest) throws -> LoadRequest {
        let suites = try suites(yaml)
        return LoadRequest(suites: suites, loaded: suites, shape: shape, run: RunOptions(jobs: 1))
    }

    static func ready(_ preparation: LoadPreparation) -> LoadPreparation.Ready? {
        if case .ready(let ready) = preparation { ready } else { nil }
    }

    @Test func anOpenLoadIsShardedAndGetsAConnectionPerIterationInFlight() throws {
        var shape = LoadShape()
        shape.rate = "400/s"
        shape.duration = .seconds(2)
        shape.durationText = "2s"
        shape.maxInFlight = 30
        var request = try Self.request(shape)
        request.shard = try ShardSpec(index: 2, count: 4)
        let ready = try #require(Self.ready(try LoadService.prepare(request)))
        guard case .open(let schedule) = ready.options.model else {
            Issue.record("expected the open model, got \(ready.options.model)")
            return
        }
        #expect(schedule.startRate == 100)
        #expect(ready.options.shard == LoadResult.Model.Shard(index: 2, count: 4))
        #expect(ready.options.run.jobs == 30)
        #expect(!ready.options.run.failFastUnreachable)
        // No threshold given or in the suite: every iteration must pass.
        #expect(ready.options.thresholds.map(\.text) == ["errors<=0"])
        #expect(ready.preflight.problems.isEmpty)
    }

    @Test func aClosedLoadTakesAConnectionPerUserAndTheThresholdsOfBoth() throws {
        var shape = LoadShape()
        shape.virtualUsers = 3
        shape.duration = .seconds(1)
        shape.thresholds = ["p95<20ms"]
        let yaml = "load: {thresholds: ['errors<1%']}\n" + Self.oneTest
        let ready = try #require(Self.ready(try LoadService.prepare(try Self.request(shape, yaml: yaml))))
        #expect(ready.options.run.jobs == 3)
        #expect(ready.options.thresholds.map(\.text) == ["p95<20ms", "errors<1%"])
    }

    @Test func aShardWithoutAUserAndASelectionWithNothingToPickRunNothing() throws {
        var shape = LoadShape()
        shape.virtualUsers = 2
        shape.duration = .seconds(1)
        var request = try Self.request(shape)
        request.shard = try ShardSpec(index: 3, count: 3)
        guard case .shardWithoutUser(let shard, let users) = try LoadService.prepare(request) else {
            Issue.record("expected a shard without a user")
            return
        }
        #expect(shard.index == 3 && users == 2)
        let skipped = "tests:\n  - name: one\n    skip: later\n    request: {url: 'http://h.test/'}\n"
        guard case .nothingToPick = try LoadService.prepare(try Self.request(shape, yaml: skipped)) else {
            Issue.record("expected nothing to pick")
            return
        }
    }

    @Test func aShapesProblemsAreTypedAndWordedAsTheFlagsAre() {
        func problem(_ change: (inout LoadShape) -> Void) -> LoadShapeProblem? {
            var shape = LoadShape()
            change(&shape)
            do {
                try shape.check()
                return nil
            } catch {
                return error
            }
        }
        #expect(problem { _ in }?.kind == .noModel)
        let mixed = problem {
            $0.virtualUsers = 2
            $0.rate = "10/s"
        }
        #expect(mixed?.kind == .virtualUsersWithOpenModel)
        #expect(mixed?.description == "--vus (closed model) cannot be used with --rate or --stage (open model)")
        let tooSlow = problem {
            $0.rate = "0/s"
            $0.duration = .seconds(1)
            $0.durationText = "1s"
        }
        #expect(tooSlow?.kind == .rateStartsNoIteration(rate: "0/s", duration: "1s"))
        #expect(tooSlow?.description == "--rate 0/s for 1s starts no iteration")
        #expect(
            problem { $0.stages = ["30s"] }?.description == "--stage '30s': expected DURATION:RATE, such as 30s:100/s")
        #expect(problem { $0.stages = ["1s:fast"] }?.kind == .invalidRate(flag: "--stage", text: "fast"))
        let badRule = problem {
            $0.rate = "10/s"
            $0.duration = .seconds(1)
            $0.thresholds = ["p95<<1"]
        }
        guard case .invalidThreshold(let sentence)? = badRule?.kind else {
            Issue.record("expected a threshold problem, got \(String(describing: badRule))")
            return
        }
        #expect(sentence.hasPrefix("threshold 'p95<<1'"))
        let crowded = problem {
            $0.rate = "10/s"
            $0.duration = .seconds(1)
            $0.maxInFlight = 0
        }
        #expect(crowded?.kind == .maxInFlightOutOfRange)
    }

    @Test func aPreparedLoadRunsOnTheTransportWithItsSetupOnce() async throws {
        var shape = LoadShape()
        shape.rate = "40/s"
        shape.duration = .milliseconds(250)
        shape.durationText = "250ms"
        let yaml = """
            setup:
              - request: {url: 'http://h.test/login'}
            tests:
              - name: one
                request: {url: 'http://h.test/item'}
            """
        let ready = try #require(Self.ready(try LoadService.prepare(try Self.request(shape, yaml: yaml))))
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let result = await LoadService.run(ready, transport: transport)
        #expect(result.counts.completed == 10)
        #expect(result.counts.passed == 10)
        #expect(transport.paths.filter { $0 == "/login" }.count == 1)
        #expect(transport.paths.filter { $0 == "/item" }.count == 10)
        #expect(result.thresholdsHold)
    }
}

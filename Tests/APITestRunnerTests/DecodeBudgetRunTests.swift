import APITestHTTP
import APITestResults
import APITestSuite
import APITestTestSupport
import Foundation
import Testing

@testable import APITestRunner

/// The decode budget in a run: tests in flight at once check their large bodies one at a time when the budget
/// holds one. The bodies come from the scripted transport.
@Suite(.serialized) struct DecodeBudgetRunTests {
    @Test func concurrentTestsCheckLargeBodiesWithinTheBudget() async throws {
        // 2 MiB of small arrays: each check reserves 8 MiB.
        var text = "["
        var index = 0
        while text.utf8.count < 2 << 20 {
            text += index == 0 ? "[\(index % 10),\(index % 7)]" : ",[\(index % 10),\(index % 7)]"
            index += 1
        }
        text += "]"
        let body = text
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: body) }

        let tests = (0..<6).map { "  - {name: t\($0), request: {url: /big.json}, expect: {json: {'$[1][0]': 1}}}" }
        let yaml = "baseURL: http://api.test\ntests:\n" + tests.joined(separator: "\n")
        let suite = try SuiteLoader(environment: [:]).load(source: yaml, file: "/r/budget.yaml")
        let runtime = SuiteRuntime(suite: suite, userAgent: "t")
        var options = RunOptions(jobs: 6)
        options.decodeMemoryBudget = 12 << 20
        let executor = TestExecutor(transport: transport, options: options)
        let statuses = await withTaskGroup(of: TestStatus.self) { group in
            for test in suite.tests { group.addTask { await executor.run(test, in: runtime).status } }
            return await group.reduce(into: [TestStatus]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .passed, count: 6))
        #expect(transport.requests.count == 6)
        // Six bodies costing 8 MiB each were checked, never two at once within 12 MiB.
        #expect(await executor.decodeBudget.peak == 4 * text.utf8.count)
    }

    @Test func schemaChecksReadTheTapeAndReserveWhatQueriesReserve() async throws {
        // 2 MiB of small objects with null members; the last one breaks the schema once nulls are dropped.
        var text = "["
        var index = 0
        while text.utf8.count < 2 << 20 {
            text += (index == 0 ? "" : ",") + #"{"id":\#(index),"note":null}"#
            index += 1
        }
        text += #",{"id":"last","note":null}]"#
        let body = text
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: body) }
        let item = #"{type: object, required: [id], additionalProperties: false, properties: {id: {type: integer}}}"#
        let yaml = """
            baseURL: http://api.test
            response: {removesKeysWithNullValues: true}
            tests:
              - {name: all, request: {url: /big.json}, expect: {schema: {type: array, items: \(item)}}}
              - {name: prefix, request: {url: /big.json}, expect: {schema: {type: array, maxItems: 2}}}
            """
        let suite = try SuiteLoader(environment: [:]).load(source: yaml, file: "/r/schema.yaml")
        let runtime = SuiteRuntime(suite: suite, userAgent: "t")
        var options = RunOptions(jobs: 2)
        options.decodeMemoryBudget = 256 << 20
        let executor = TestExecutor(transport: transport, options: options)
        let results = await withTaskGroup(of: TestResult.self) { group in
            for test in suite.tests { group.addTask { await executor.run(test, in: runtime) } }
            return await group.reduce(into: [TestResult]()) { $0.append($1) }
        }.sorted { $0.name < $1.name }
        #expect(results.map(\.status) == [.failed, .failed])
        let count = index + 1
        #expect(
            results[0].failures.first?.message.contains(
                "1 error; first at /\(count - 1)/id: must be integer, got string") == true,
            "\(results[0].failures)")
        #expect(
            results[1].failures.first?.message.contains("must have at most 2 items, got \(count)") == true,
            "\(results[1].failures)")
        // Each read the body as a tape and reserved 4x it (a schema check that built a tree would reserve 32x).
        let peak = await executor.decodeBudget.peak
        #expect(peak == 4 * text.utf8.count || peak == 2 * 4 * text.utf8.count, "peak \(peak)")
    }
}

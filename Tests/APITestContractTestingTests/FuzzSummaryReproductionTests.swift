import APITestContractTesting
import Testing

/// The console summary says of a stateful finding that did not fail the same way when its sequence was re-run that
/// it did not reproduce (before, only the written file's comment said so, and the summary showed it as any other).
@Suite struct FuzzSummaryReproductionTests {
    /// The summary of a run with one `not_a_server_error` finding whose re-run showed `reproduction`.
    static func summary(_ reproduction: FuzzFinding.Reproduction?) throws -> String {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
             "paths": {"/notes": {"get": {"operationId": "listNotes",
               "responses": {"200": {"description": "the notes"}}}}}}
            """
        var configuration = FuzzConfiguration(baseURL: "http://127.0.0.1:9")
        configuration.dryRun = true
        let engine = try TestDocument.document(document).engine(configuration)
        let fuzzCase = try #require(engine.generatedCases().first)
        var outcome = CaseOutcome(
            fuzzCase: fuzzCase, request: engine.request(for: fuzzCase), intent: fuzzCase.intent, response: nil,
            transportError: nil)
        outcome.failures = [CheckFailure(.notAServerError, "the server answered 500", signature: "500")]
        var findings = FuzzRun.findings(of: [outcome])
        try #require(findings.count == 1)
        findings[0].reproduction = reproduction
        let run = FuzzRun(outcomes: [outcome], notSent: 0, findings: findings, duration: .zero)
        return engine.summary(of: run).render()
    }

    @Test func aFindingThatDidNotFailAgainSaysSoInTheSummary() throws {
        let text = try Self.summary(.notReproduced(requests: 3))
        #expect(text.contains(", did not reproduce when re-run (3 requests), written as found\n"), "\(text)")
        let one = try Self.summary(.notReproduced(requests: 1))
        #expect(one.contains(", did not reproduce when re-run (1 request), written as found\n"), "\(one)")
    }

    @Test func aFindingThatFailedAgainOrWasNotReRunSaysNothingMore() throws {
        for reproduction in [FuzzFinding.Reproduction.reproduced, .notTried, nil] {
            let text = try Self.summary(reproduction)
            #expect(text.contains("1 case\n"), "\(text)")
            #expect(!text.contains("reproduce"), "\(text)")
        }
    }
}

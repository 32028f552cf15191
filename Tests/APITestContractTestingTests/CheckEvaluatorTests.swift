import APITestContractTesting
import APITestOpenAPI
import Testing

/// Each check judges the responses it is for, and only those.
@Suite struct CheckEvaluatorTests {
    func fixture() throws -> (FuzzDocument, CheckEvaluator, FuzzCase) {
        let document = try TestDocument.document(CaseGenerationTests.document)
        let evaluator = CheckEvaluator(contract: document.contract, checks: FuzzCheck.allCases)
        var configuration = FuzzConfiguration(baseURL: "http://127.0.0.1:9")
        configuration.dryRun = true
        let engine = document.engine(configuration)
        let getPet = try #require(engine.generatedCases().first { $0.operation == 1 && $0.phase == .coverage })
        return (document, evaluator, getPet)
    }

    func checks(_ failures: [CheckFailure]) -> Set<FuzzCheck> { Set(failures.map(\.check)) }

    @Test func dataChecksFollowTheJudgedIntent() throws {
        let (document, evaluator, getPet) = try fixture()
        let operation = document.description.operations[1].operation
        let ok = FuzzResponse(status: 200, headers: [], body: [])
        #expect(evaluator.evaluate(getPet, operation: operation, intent: .valid, response: ok).isEmpty)
        let accepted = evaluator.evaluate(
            getPet, operation: operation, intent: .invalid(keyword: "minimum", place: "path id"), response: ok)
        #expect(checks(accepted) == [.negativeDataRejection])
        // Not judged: no data check either way.
        #expect(evaluator.evaluate(getPet, operation: operation, intent: .unknown, response: ok).isEmpty)
        let refused = evaluator.evaluate(
            getPet, operation: operation, intent: .valid, response: FuzzResponse(status: 422, headers: [], body: []))
        #expect(checks(refused) == [.positiveDataAcceptance, .statusCodeConformance])
        let crashed = evaluator.evaluate(
            getPet, operation: operation, intent: .valid, response: FuzzResponse(status: 503, headers: [], body: []))
        #expect(checks(crashed) == [.notAServerError, .statusCodeConformance])
        // A response to a request that routes elsewhere is not held to this operation's responses.
        #expect(
            evaluator.evaluate(
                getPet, operation: operation, intent: .unknown, routes: false,
                response: FuzzResponse(status: 418, headers: [], body: [])
            ).isEmpty)
    }

    @Test func probesAreCheckedForWhatTheyProbe() throws {
        let (document, evaluator, getPet) = try fixture()
        let operation = document.description.operations[1].operation
        var probe = getPet
        probe.method = "DELETE"
        probe.purpose = .unsupportedMethod
        let allowed = FuzzResponse(status: 405, headers: [BuiltRequest.Header("Allow", "GET")], body: [])
        #expect(evaluator.evaluate(probe, operation: operation, intent: .unknown, response: allowed).isEmpty)
        let noAllow = FuzzResponse(status: 405, headers: [], body: [])
        #expect(
            checks(evaluator.evaluate(probe, operation: operation, intent: .unknown, response: noAllow)) == [
                .unsupportedMethod
            ])
        let served = FuzzResponse(status: 200, headers: [], body: [])
        #expect(
            checks(evaluator.evaluate(probe, operation: operation, intent: .unknown, response: served)) == [
                .unsupportedMethod
            ])

        var anonymous = getPet
        anonymous.purpose = .withoutCredentials(bogus: false)
        #expect(
            checks(evaluator.evaluate(anonymous, operation: operation, intent: .valid, response: served)) == [
                .ignoredAuth
            ])
        let denied = FuzzResponse(status: 401, headers: [], body: [])
        #expect(
            !checks(evaluator.evaluate(anonymous, operation: operation, intent: .valid, response: denied)).contains(
                .ignoredAuth))

        var afterDelete = getPet
        afterDelete.purpose = .stateful(.readAfterDelete)
        #expect(
            checks(evaluator.evaluate(afterDelete, operation: operation, intent: .valid, response: served)) == [
                .useAfterFree
            ])
        var afterCreate = getPet
        afterCreate.purpose = .stateful(.readAfterCreate)
        let missing = FuzzResponse(status: 404, headers: [], body: [])
        #expect(
            checks(evaluator.evaluate(afterCreate, operation: operation, intent: .valid, response: missing))
                == [.ensureResourceAvailability])
    }

    @Test func onlyTheSelectedChecksFail() throws {
        let (document, _, getPet) = try fixture()
        let evaluator = CheckEvaluator(contract: document.contract, checks: [.statusCodeConformance])
        let crashed = FuzzResponse(status: 503, headers: [], body: [])
        let failures = evaluator.evaluate(
            getPet, operation: document.description.operations[1].operation, intent: .valid, response: crashed)
        #expect(checks(failures) == [.statusCodeConformance])
    }
}

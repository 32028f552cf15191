import APITestContractTesting
import APITestJSON
import Testing

/// The cases of a document: the same for the same seed, each phase's kinds of cases, option names checked, and
/// shrinking's smaller values.
@Suite struct CaseGenerationTests {
    static let document = """
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
         "paths": {
           "/pets": {"post": {"operationId": "createPet", "security": [{"key": []}],
             "requestBody": {"required": true, "content": {"application/json": {"schema": {
               "type": "object", "required": ["name"], "additionalProperties": false, "properties": {
                 "name": {"type": "string", "minLength": 1, "maxLength": 10},
                 "age": {"type": "integer", "minimum": 0}}},
               "example": {"name": "Rex", "age": 3}}}},
             "responses": {"201": {"description": "created"}}}},
           "/pets/{id}": {"get": {"operationId": "getPet", "parameters": [
               {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}},
               {"name": "verbose", "in": "query", "schema": {"type": "boolean"}}],
             "responses": {"200": {"description": "ok"}, "404": {"description": "no"}}}}}}
        """

    func engine(seed: UInt64) throws -> FuzzEngine {
        var configuration = FuzzConfiguration(baseURL: "http://127.0.0.1:9")
        configuration.seed = seed
        configuration.maxExamples = 30
        configuration.dryRun = true
        return try TestDocument.document(Self.document).engine(configuration)
    }

    func requests(_ engine: FuzzEngine) -> [BuiltRequest] {
        engine.generatedCases().map(engine.request(for:))
    }

    @Test func theSameSeedMakesTheSameRequestsInTheSameOrder() throws {
        let first = requests(try engine(seed: 12))
        #expect(first == requests(try engine(seed: 12)))
        #expect(first != requests(try engine(seed: 13)))
        #expect(first.count > 60)
    }

    @Test func thePhasesMakeTheirKindsOfCases() throws {
        let engine = try engine(seed: 1)
        let cases = engine.generatedCases()
        let examples = cases.filter { $0.phase == .examples }
        #expect(examples.contains { $0.body?.value == ["name": "Rex", "age": 3] })
        let coverage = cases.filter { $0.phase == .coverage }.map { ($0, engine.request(for: $0)) }
        let intents = coverage.map { engine.judge($0.0, $0.1) }
        // Each keyword broken and judged so by the contract.
        for keyword in ["required", "minLength", "maxLength", "minimum", "additionalProperties", "type", "json"] {
            #expect(
                intents.contains {
                    if case .invalid(keyword, _) = $0 { return true }
                    return false
                }, "no case breaks \(keyword)")
        }
        #expect(intents.contains(.valid))
        // Undeclared methods of each path, once per path, and the secured operation without its key.
        let methods = coverage.filter { $0.0.purpose == .unsupportedMethod }.map {
            "\($0.1.method) \($0.1.pathAndQuery)"
        }
        #expect(methods.contains("GET /pets"))
        #expect(methods.contains { $0.hasPrefix("DELETE /pets/") })
        #expect(!methods.contains("POST /pets"))
        let withoutKey = coverage.filter { $0.0.purpose == .withoutCredentials(bogus: false) }
        #expect(withoutKey.count == 1)
        #expect(withoutKey.allSatisfy { !$0.1.headers.contains { $0.name == "X-Key" } })
        let bogus = coverage.filter { $0.0.purpose == .withoutCredentials(bogus: true) }
        #expect(bogus.first?.1.headers.contains { $0.name == "X-Key" } == true)
        #expect(cases.filter { $0.phase == .fuzzing }.count == 60)
    }

    @Test func unknownNamesGetTheClosestKnownOne() {
        #expect(throws: FuzzOptionError.self) { try FuzzCheck.parse("not_a_server_eror") }
        do {
            _ = try FuzzCheck.parse("not_a_server_eror")
        } catch {
            #expect(error.description.contains("did you mean 'not_a_server_error'?"))
        }
        do {
            _ = try FuzzPhase.parse("examples,fuzing")
        } catch {
            #expect(error.description.contains("did you mean 'fuzzing'?"))
        }
        #expect((try? FuzzPhase.parse("stateful,examples")) == [.examples, .stateful])
        #expect((try? FuzzCheck.parse("all"))?.count == FuzzCheck.allCases.count)
        #expect(throws: FuzzOptionError.self) { try FuzzCheck.parse("ignored_auth,") }
    }

    @Test func shrinkingMakesValuesSmaller() {
        let value: JSONValue = ["name": "abcdefgh", "tags": ["a", "b", "c", "d"], "age": 40]
        let smaller = FuzzEngine.smallerValues(value)
        #expect(smaller.contains(["tags": ["a", "b", "c", "d"], "age": 40]))
        #expect(smaller.contains(["name": "abcd", "tags": ["a", "b", "c", "d"], "age": 40]))
        #expect(smaller.contains(["name": "abcdefgh", "tags": ["a", "b"], "age": 40]))
        #expect(smaller.contains(["name": "abcdefgh", "tags": ["a", "b", "c", "d"], "age": 20]))
        #expect(FuzzEngine.smallerValues("a").isEmpty)
        #expect(FuzzEngine.smallerValues(1).isEmpty)
    }

    @Test func shrinkingLeavesOutOptionalParametersFirst() throws {
        let engine = try engine(seed: 1)
        var fuzzCase = try #require(engine.generatedCases().first { $0.operation == 1 && $0.phase == .coverage })
        fuzzCase.parameters[1].value = true
        let candidates = engine.smaller(fuzzCase)
        #expect(candidates.first?.parameters[1].value == nil)
        #expect(candidates.first?.parameters[0].value == fuzzCase.parameters[0].value)
        // A required parameter is never left out.
        #expect(candidates.allSatisfy { $0.parameters[0].value != nil })
    }
}

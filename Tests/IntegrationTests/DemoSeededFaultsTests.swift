import Foundation
import Testing

/// The demo's petstore against examples/.openapi/petstore-faults.yaml through real requests with curl, one server
/// per test: without options it answers as that spec says (the `X-Total-Count` header, `GET /petstore/stats`
/// behind `X-API-Key: petstore-key`, 405 for PUT), and `apitest-demo --seeded-faults` breaks it in exactly the one
/// documented way per contract-fuzzing check (docs/demo-api.md, "Seeded faults"), for the input named there.
@Suite struct DemoSeededFaultsTests {
    // MARK: - Helpers

    /// Runs `body` against a fresh server (`--seeded-faults` when `faults`) that is stopped however the test ends.
    func withDemo(faults: Bool, _ body: (DemoServer) async throws -> Void) async throws {
        let demo = try await DemoServer.start(extraArguments: faults ? ["--seeded-faults"] : [])
        defer { demo.stop() }
        try await body(demo)
    }

    func curl(_ demo: DemoServer, _ path: String, _ options: [String] = []) async throws -> CurlExchange {
        try await CurlExchange.run(demo.baseURL + path, options)
    }

    /// A POST of `body` as `application/json` to the petstore's collection.
    func postPet(_ demo: DemoServer, _ body: String) async throws -> CurlExchange {
        try await curl(demo, "/petstore/pets", ["-H", "Content-Type: application/json", "--data-binary", body])
    }

    /// The `id` of a JSON object reply.
    func id(_ reply: CurlExchange, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(try reply.json()["id"] as? Int, "\(reply.text)", sourceLocation: sourceLocation)
    }

    /// Expects the spec's `Error` as JSON with `status`.
    func expectError(_ reply: CurlExchange, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        #expect(try reply.json()["code"] as? Int == status, sourceLocation: sourceLocation)
    }

    // MARK: - Without the option: the faults spec holds

    @Test func cleanListSendsTheTotalCountBeforeTheLimitAndIntegerIDs() async throws {
        try await withDemo(faults: false) { demo in
            let all = try await curl(demo, "/petstore/pets")
            #expect(all.status == 200)
            #expect(all.header("X-Total-Count") == "3")
            #expect(all.text == DemoOpenAPITests.seedText)
            let two = try await curl(demo, "/petstore/pets?limit=2")
            #expect(two.header("X-Total-Count") == "3", "counted before the limit")
            #expect(two.text == #"[{"id":1,"name":"Fluffy","tag":"cat"},{"id":2,"name":"Rex","tag":"dog"}]"#)
            let dogs = try await curl(demo, "/petstore/pets?tags=dog&limit=5000")
            #expect(dogs.status == 200, "a large limit is fine")
            #expect(dogs.header("X-Total-Count") == "1")
        }
    }

    @Test func cleanPostAcceptsDuplicatesEmptyNamesAndUntaggedPetsAndRefusesAWrongType() async throws {
        try await withDemo(faults: false) { demo in
            let duplicate = try await postPet(demo, #"{"name":"Fluffy","tag":"cat"}"#)
            #expect(duplicate.status == 200, "the spec allows duplicates: \(duplicate.text)")
            let empty = try await postPet(demo, #"{"name":"","tag":"x"}"#)
            #expect(empty.status == 200, "\(empty.text)")
            let untagged = try await postPet(demo, #"{"name":"Kit"}"#)
            #expect(untagged.status == 200)
            #expect(try await curl(demo, "/petstore/pets/\(try id(untagged))").text == untagged.text)
            try expectError(try await postPet(demo, #"{"name":7,"tag":"cat"}"#), 400)
        }
    }

    @Test func cleanDeleteRemovesAndAnAbsentPetIsAJSONError() async throws {
        try await withDemo(faults: false) { demo in
            #expect(try await curl(demo, "/petstore/pets/2", ["-X", "DELETE"]).status == 204)
            try expectError(try await curl(demo, "/petstore/pets/2"), 404)
            try expectError(try await curl(demo, "/petstore/pets/999"), 404)
        }
    }

    @Test func cleanPutIsRefusedWithAllow() async throws {
        try await withDemo(faults: false) { demo in
            let put = try await curl(demo, "/petstore/pets", ["-X", "PUT"])
            #expect(put.status == 405)
            #expect(put.header("Allow") == "GET, HEAD, POST")
        }
    }

    @Test func cleanStatsNeedsTheAPIKey() async throws {
        try await withDemo(faults: false) { demo in
            try expectError(try await curl(demo, "/petstore/stats"), 401)
            try expectError(try await curl(demo, "/petstore/stats", ["-H", "X-API-Key: wrong"]), 401)
            let stats = try await curl(demo, "/petstore/stats", ["-H", "X-API-Key: petstore-key"])
            #expect(stats.status == 200)
            #expect(stats.text == #"{"count":3}"#)
        }
    }

    // MARK: - With --seeded-faults: one fault per check

    @Test func faultNoServerErrorALimitOver1000Is500() async throws {
        try await withDemo(faults: true) { demo in
            #expect(try await curl(demo, "/petstore/pets?limit=1000").status == 200, "1000 still works")
            try expectError(try await curl(demo, "/petstore/pets?limit=1001"), 500)
            try expectError(try await curl(demo, "/petstore/pets?limit=2147483647"), 500)
            try expectError(try await curl(demo, "/petstore/pets?limit=-1"), 400)
        }
    }

    @Test func faultStatusDocumentedADuplicateNameIsAnUndeclared409() async throws {
        try await withDemo(faults: true) { demo in
            try expectError(try await postPet(demo, #"{"name":"Fluffy","tag":"cat"}"#), 409)
            #expect(try await postPet(demo, #"{"name":"Kit","tag":"cat"}"#).status == 200)
            try expectError(try await postPet(demo, #"{"name":"Kit","tag":"dog"}"#), 409)
        }
    }

    @Test func faultContentTypeAnAbsentPetIsPlainText() async throws {
        try await withDemo(faults: true) { demo in
            let absent = try await curl(demo, "/petstore/pets/999")
            #expect(absent.status == 404)
            #expect(absent.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(absent.text == "pet 999 not found")
            #expect(try await curl(demo, "/petstore/pets/1").header("Content-Type") == "application/json")
        }
    }

    @Test func faultResponseSchemaAndRequiredHeaderTheListSendsStringIDsAndNoTotal() async throws {
        try await withDemo(faults: true) { demo in
            let all = try await curl(demo, "/petstore/pets")
            #expect(all.status == 200)
            #expect(all.header("X-Total-Count") == nil)
            #expect(
                all.text
                    == #"[{"id":"1","name":"Fluffy","tag":"cat"},{"id":"2","name":"Rex","tag":"dog"},{"id":"3","name":"Polly"}]"#
            )
            #expect(try await curl(demo, "/petstore/pets/1").text == #"{"id":1,"name":"Fluffy","tag":"cat"}"#)
        }
    }

    @Test func faultInvalidDataRejectedANameOfAnotherTypeIsAccepted() async throws {
        try await withDemo(faults: true) { demo in
            let number = try await postPet(demo, #"{"name":7,"tag":"cat"}"#)
            #expect(number.status == 200)
            #expect(number.text == #"{"id":4,"name":"7","tag":"cat"}"#)
            let object = try await postPet(demo, #"{"name":{"a":1},"tag":"cat"}"#)
            #expect(object.text == #"{"id":5,"name":"{\"a\":1}","tag":"cat"}"#)
            try expectError(try await postPet(demo, #"{"tag":"cat"}"#), 400)
            try expectError(try await postPet(demo, #"{"name":"Kit","tag":7}"#), 400)
        }
    }

    @Test func faultValidDataAcceptedAnEmptyNameIsRefused() async throws {
        try await withDemo(faults: true) { demo in
            try expectError(try await postPet(demo, #"{"name":"","tag":"cat"}"#), 400)
            #expect(try await postPet(demo, #"{"name":"K","tag":"cat"}"#).status == 200)
        }
    }

    @Test func faultUseAfterDeleteADeletedPetIsStillFound() async throws {
        try await withDemo(faults: true) { demo in
            #expect(try await curl(demo, "/petstore/pets/2", ["-X", "DELETE"]).status == 204)
            let deleted = try await curl(demo, "/petstore/pets/2")
            #expect(deleted.status == 200)
            #expect(deleted.text == #"{"id":2,"name":"Rex","tag":"dog"}"#)
            #expect(!(try await curl(demo, "/petstore/pets").text.contains("Rex")), "gone from the list")
            #expect(try await curl(demo, "/petstore/pets/2", ["-X", "DELETE"]).status == 404)
        }
    }

    @Test func faultCreatedResourceAvailableAnUntaggedPetIsNeverStored() async throws {
        try await withDemo(faults: true) { demo in
            let untagged = try await postPet(demo, #"{"name":"Kit"}"#)
            #expect(untagged.status == 200)
            #expect(untagged.text == #"{"id":4,"name":"Kit"}"#)
            #expect(try await curl(demo, "/petstore/pets/4").status == 404)
            let tagged = try await postPet(demo, #"{"name":"Kat","tag":"cat"}"#)
            #expect(try id(tagged) == 5, "the id was used up")
            #expect(try await curl(demo, "/petstore/pets/5").status == 200)
        }
    }

    @Test func faultUnsupportedMethodPutOnTheCollectionIs200() async throws {
        try await withDemo(faults: true) { demo in
            let put = try await curl(demo, "/petstore/pets", ["-X", "PUT"])
            #expect(put.status == 200)
            #expect(put.header("Allow") == nil)
            #expect(try await curl(demo, "/petstore/pets", ["-X", "PATCH"]).status == 405, "only PUT")
        }
    }

    @Test func faultAuthRequiredStatsAnswersWithoutTheKey() async throws {
        try await withDemo(faults: true) { demo in
            let stats = try await curl(demo, "/petstore/stats")
            #expect(stats.status == 200)
            #expect(stats.text == #"{"count":3}"#)
            #expect(try await curl(demo, "/petstore/stats", ["-H", "X-API-Key: wrong"]).status == 200)
        }
    }

    // MARK: - The option

    @Test func seededFaultsTakesNoValue() async throws {
        let result = try await runProcess(try TestBinaries.url("apitest-demo"), ["--seeded-faults=yes"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--seeded-faults takes no value"), "\(result.stderr)")
    }
}

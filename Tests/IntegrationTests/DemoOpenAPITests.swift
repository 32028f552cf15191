import Foundation
import Testing

/// The demo API's OpenAPI groundwork through real requests with curl, one server per test: the petstore under
/// `/petstore` answers as the OAI's petstore-expanded.yaml says, and each `/contract-faults` route breaks its
/// declared contract in exactly its one way (examples/.openapi/openapi.yaml; the specs themselves are loaded by
/// apitest's own OpenAPI tests, not here).
@Suite struct DemoOpenAPITests {
    // MARK: - Helpers

    /// Runs `body` against a fresh server that is stopped however the test ends.
    func withDemo(_ body: (DemoServer) async throws -> Void) async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        try await body(demo)
    }

    func curl(_ demo: DemoServer, _ path: String, _ options: [String] = []) async throws -> CurlExchange {
        try await CurlExchange.run(demo.baseURL + path, options)
    }

    /// A POST of `body` as `application/json`.
    func post(_ demo: DemoServer, _ path: String, json body: String) async throws -> CurlExchange {
        try await curl(demo, path, ["-H", "Content-Type: application/json", "--data-binary", body])
    }

    /// The body parsed as any JSON value.
    func parsed(_ reply: CurlExchange) throws -> Any {
        try JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed])
    }

    /// Checks that `reply` is the petstore spec's `Error`: exactly `code` (the status) and `message`, as JSON.
    func expectPetstoreError(
        _ reply: CurlExchange, status: Int, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == status, sourceLocation: sourceLocation)
        #expect(reply.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        let object = try reply.json()
        #expect(Set(object.keys) == ["code", "message"], "\(reply.text)", sourceLocation: sourceLocation)
        #expect(object["code"] as? Int == status, sourceLocation: sourceLocation)
        #expect(object["message"] as? String == message, sourceLocation: sourceLocation)
    }

    static let seedText =
        #"[{"id":1,"name":"Fluffy","tag":"cat"},{"id":2,"name":"Rex","tag":"dog"},{"id":3,"name":"Polly"}]"#

    // MARK: - Petstore: finding pets

    @Test func petstoreListsTheSeedInIDOrderAndLeavesOutAMissingTag() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/petstore/pets")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.text == Self.seedText)
            let pets = try #require(try parsed(reply) as? [[String: Any]])
            #expect(pets.map { $0["id"] as? Int } == [1, 2, 3])
            #expect(pets[2]["tag"] == nil, "a pet without a tag has no tag member (the spec's tag is never null)")
        }
    }

    @Test func petstoreFiltersByExplodedTagsAndLimits() async throws {
        try await withDemo { demo in
            func ids(_ query: String) async throws -> [Int] {
                let reply = try await curl(demo, "/petstore/pets?" + query)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                let pets = try #require(try parsed(reply) as? [[String: Any]], "\(query): \(reply.text)")
                return pets.compactMap { $0["id"] as? Int }
            }
            #expect(try await ids("tags=dog") == [2])
            #expect(try await ids("tags=dog&tags=cat") == [1, 2])
            #expect(try await ids("tags=cat,dog") == [], "form style, exploded: a comma is part of one tag")
            #expect(try await ids("tags=bird") == [])
            #expect(try await ids("limit=2") == [1, 2])
            #expect(try await ids("limit=0") == [])
            #expect(try await ids("limit=2147483647") == [1, 2, 3])
            #expect(try await ids("tags=cat&tags=dog&limit=1") == [1])

            try expectPetstoreError(
                try await curl(demo, "/petstore/pets?limit=x"), status: 400,
                message: "limit must be an integer from 0 to 2147483647, got 'x'")
            try expectPetstoreError(
                try await curl(demo, "/petstore/pets?limit=-1"), status: 400,
                message: "limit must be an integer from 0 to 2147483647, got '-1'")
            try expectPetstoreError(
                try await curl(demo, "/petstore/pets?limit=2147483648"), status: 400,
                message: "limit must be an integer from 0 to 2147483647, got '2147483648'")
        }
    }

    // MARK: - Petstore: adding pets

    @Test func petstoreAddsPetsWithNewIDsAndAllowsDuplicates() async throws {
        try await withDemo { demo in
            let kit = try await post(demo, "/petstore/pets", json: #"{"name":"Kit","tag":"cat","colour":"black"}"#)
            #expect(kit.status == 200, "the spec declares 200, not 201")
            #expect(kit.header("Content-Type") == "application/json")
            #expect(kit.text == #"{"id":4,"name":"Kit","tag":"cat"}"#, "unknown members are ignored")
            let again = try await post(demo, "/petstore/pets", json: #"{"name":"Kit"}"#)
            #expect(again.status == 200)
            #expect(again.text == #"{"id":5,"name":"Kit"}"#)
            let empty = try await post(demo, "/petstore/pets", json: #"{"name":""}"#)
            #expect(empty.text == #"{"id":6,"name":""}"#, "the spec's name is any string")

            #expect(try await curl(demo, "/petstore/pets/5").text == again.text)
            let cats = try await curl(demo, "/petstore/pets?tags=cat")
            #expect(cats.text == #"[{"id":1,"name":"Fluffy","tag":"cat"},{"id":4,"name":"Kit","tag":"cat"}]"#)
        }
    }

    @Test func petstoreRefusesABadNewPetWithTheSpecsError() async throws {
        try await withDemo { demo in
            try expectPetstoreError(
                try await post(demo, "/petstore/pets", json: #"{"tag":"cat"}"#), status: 400,
                message: "missing required field 'name'")
            try expectPetstoreError(
                try await post(demo, "/petstore/pets", json: #"{"name":7}"#), status: 400,
                message: "field 'name' must be a string")
            try expectPetstoreError(
                try await post(demo, "/petstore/pets", json: #"{"name":"Kit","tag":null}"#), status: 400,
                message: "field 'tag' must be a string")
            try expectPetstoreError(
                try await post(demo, "/petstore/pets", json: #"["Kit"]"#), status: 400,
                message: "request body must be a JSON object")
            let notJSON = try await post(demo, "/petstore/pets", json: "{name")
            #expect(notJSON.status == 400)
            #expect(try notJSON.json()["code"] as? Int == 400)
            #expect((try notJSON.json()["message"] as? String)?.hasPrefix("invalid JSON: ") == true)

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petstore-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let large = folder.appendingPathComponent("large.json")
            let text = #"{"name":""# + String(repeating: "x", count: 1 << 20) + #""}"#
            try Data(text.utf8).write(to: large)
            try expectPetstoreError(
                try await curl(
                    demo, "/petstore/pets", ["-H", "Content-Type: application/json", "--data-binary", "@" + large.path]),
                status: 413, message: "JSON body larger than 1 MiB")
            #expect(try await curl(demo, "/petstore/pets").text == Self.seedText, "nothing was added")
        }
    }

    @Test func petstoreConcurrentAddsGetDistinctIDs() async throws {
        try await withDemo { demo in
            let ids = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let reply = try await CurlExchange.run(
                            demo.baseURL + "/petstore/pets",
                            ["-H", "Content-Type: application/json", "-d", #"{"name":"pet\#(index)"}"#])
                        return try reply.json()["id"] as? Int
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1 ?? -1) }
            }
            #expect(Set(ids) == Set(4..<20))
            let all = try #require(try parsed(try await curl(demo, "/petstore/pets")) as? [[String: Any]])
            #expect(all.compactMap { $0["id"] as? Int } == Array(1..<20))
        }
    }

    // MARK: - Petstore: one pet

    @Test func petstoreFindsAndDeletesOnePet() async throws {
        try await withDemo { demo in
            let rex = try await curl(demo, "/petstore/pets/2")
            #expect(rex.status == 200)
            #expect(rex.header("Content-Type") == "application/json")
            #expect(rex.text == #"{"id":2,"name":"Rex","tag":"dog"}"#)

            let deleted = try await curl(demo, "/petstore/pets/2", ["-X", "DELETE"])
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(deleted.header("Content-Type") == nil)

            try expectPetstoreError(try await curl(demo, "/petstore/pets/2"), status: 404, message: "pet 2 not found")
            try expectPetstoreError(
                try await curl(demo, "/petstore/pets/2", ["-X", "DELETE"]), status: 404, message: "pet 2 not found")
            try expectPetstoreError(
                try await curl(demo, "/petstore/pets/abc"), status: 400, message: "id must be an integer, got 'abc'")
            try expectPetstoreError(
                try await curl(demo, "/petstore/pets/abc", ["-X", "DELETE"]), status: 400,
                message: "id must be an integer, got 'abc'")

            let added = try await post(demo, "/petstore/pets", json: #"{"name":"Rex"}"#)
            #expect(added.text == #"{"id":4,"name":"Rex"}"#, "a deleted id is not reused")
            #expect(try await curl(demo, "/petstore/pets?tags=dog").text == "[]")
        }
    }

    // MARK: - Contract faults

    @Test func faultPetSendsItsIntegerIDAsAString() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/pets/7")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.text == #"{"id":"7","name":"Fluffy"}"#)
            #expect(try reply.json()["id"] is String)

            let unknown = try await curl(demo, "/contract-faults/pets/x")
            #expect(unknown.status == 404, "the declared 404, for an id that is not an integer")
            #expect(unknown.header("Content-Type") == "application/json")
            #expect(unknown.text == #"{"error":"pet x not found"}"#)
        }
    }

    @Test func faultTeapotAnswersAnUndeclared418() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/teapot")
            #expect(reply.status == 418)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.text == #"{"error":"I'm a teapot"}"#)
        }
    }

    @Test func faultWrongTypeSendsJSONAsPlainText() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/wrong-type")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(reply.text == #"{"message":"JSON sent as text/plain"}"#)
            #expect(try reply.json()["message"] is String, "only the content type is wrong, not the body")
        }
    }

    @Test func faultMissingHeaderSendsNoRateLimit() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/missing-header")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.values("X-Rate-Limit").isEmpty)
            #expect(reply.text == #"{"message":"no X-Rate-Limit header"}"#)
        }
    }

    @Test func faultBadHeaderSendsANonIntegerRateLimit() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/bad-header")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.values("X-Rate-Limit") == ["lots"])
            #expect(reply.text == #"{"message":"X-Rate-Limit is not an integer"}"#)
        }
    }

    @Test func faultCrashAnswersAnUndeclared500() async throws {
        try await withDemo { demo in
            let reply = try await curl(demo, "/contract-faults/crash")
            #expect(reply.status == 500)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.text == #"{"error":"crashed on purpose"}"#)
        }
    }

    @Test func faultOrdersAcceptsAnyRequest() async throws {
        try await withDemo { demo in
            let requests: [(String, [String])] = [
                (
                    "/contract-faults/orders?channel=web",
                    ["-H", "Content-Type: application/json", "-d", #"{"quantity":2}"#]
                ),
                ("/contract-faults/orders", ["-X", "POST"]),
                ("/contract-faults/orders", ["-H", "Content-Type: application/json", "-d", #"{"quantity":"two"}"#]),
                ("/contract-faults/orders?channel=", ["-H", "Content-Type: text/plain", "-d", "not even JSON"]),
            ]
            for (path, options) in requests {
                let reply = try await curl(demo, path, options)
                #expect(reply.status == 201, "\(path) \(options)")
                #expect(reply.header("Content-Type") == "application/json")
                #expect(reply.text == #"{"accepted":true}"#)
            }
            #expect(try await curl(demo, "/contract-faults/orders").status == 405, "POST only")
        }
    }
}

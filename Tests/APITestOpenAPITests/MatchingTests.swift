import APITestOpenAPI
import APITestTestSupport
import Foundation
import Testing

/// Requests are matched to operations by method and path under the servers' prefix; concrete paths beat templated
/// ones; trailing slashes are forgiven only as a fallback; lookups cost the path's segments, not the operations.
struct MatchingTests {
    private let paths = """
        paths:
          /pets:
            get: {operationId: listPets, responses: {'200': {description: x}}}
          /pets/{id}:
            get: {operationId: getPet, responses: {'200': {description: x}}}
            delete: {operationId: deletePet, responses: {'204': {description: x}}}
          /pets/mine:
            get: {operationId: myPets, responses: {'200': {description: x}}}
          /pets/{id}/toys/{toy}:
            get: {operationId: getToy, responses: {'200': {description: x}}}
          /pets/{id}/toys/special:
            get: {operationId: specialToy, responses: {'200': {description: x}}}
          /pets/mine/toys/{toy}:
            get: {operationId: myToy, responses: {'200': {description: x}}}
          /files/{name}.{ext}:
            get: {operationId: getFile, responses: {'200': {description: x}}}
          /files/{name}:
            get: {operationId: getFileNoExt, responses: {'200': {description: x}}}
          /slash/:
            get: {operationId: slashed, responses: {'200': {description: x}}}
          /:
            get: {operationId: root, responses: {'200': {description: x}}}
        """

    private func makeContract(servers: String = "", options: OpenAPIContractOptions = .init()) throws -> OpenAPIContract
    {
        try inlineContract("openapi: 3.0.3\n\(servers)\n\(paths)", options: options)
    }

    /// The operation `method url` matches, by display name, and its path parameters; `nil` for no operation.
    private func matched(_ contract: OpenAPIContract, _ method: String, _ url: String) -> String? {
        if case .operation(let operation, _) = contract.match(method: method, url: url) { return operation.displayName }
        return nil
    }

    @Test func concretePathsWinThenFewerTemplatedSegments() throws {
        let contract = try makeContract()
        #expect(matched(contract, "GET", "/pets") == "listPets")
        #expect(matched(contract, "GET", "/pets/7") == "getPet")
        #expect(matched(contract, "GET", "/pets/mine") == "myPets")
        #expect(matched(contract, "DELETE", "/pets/mine") == "deletePet") // the concrete path has no DELETE
        #expect(matched(contract, "GET", "/pets/7/toys/ball") == "getToy")
        #expect(matched(contract, "GET", "/pets/7/toys/special") == "specialToy")
        // /pets/mine/toys/{toy} and /pets/{id}/toys/special both have one templated segment: the earlier literal wins.
        #expect(matched(contract, "GET", "/pets/mine/toys/special") == "myToy")
        #expect(matched(contract, "GET", "/files/report.pdf") == "getFile")
        #expect(matched(contract, "GET", "/files/report") == "getFileNoExt")
        #expect(matched(contract, "GET", "/") == "root")
        #expect(matched(contract, "get", "/pets?limit=3#top") == "listPets")
    }

    @Test func pathParametersAreDecoded() throws {
        let contract = try makeContract()
        #expect(
            contract.match(method: "GET", url: "/pets/a%20b/toys/c%2Fd")
                == .operation(try operation(contract, "getToy"), pathParameters: ["id": "a b", "toy": "c/d"]))
        #expect(
            contract.match(method: "GET", url: "/files/my%20report.tar.gz")
                == .operation(
                    try operation(contract, "getFile"), pathParameters: ["name": "my report", "ext": "tar.gz"]))
        #expect(matched(contract, "GET", "/pets/mi%6Ee") == "myPets")
    }

    @Test func trailingSlashesMatchOnlyWhenNothingElseDoes() throws {
        let contract = try makeContract()
        #expect(matched(contract, "GET", "/pets/") == "listPets")
        #expect(matched(contract, "GET", "/slash/") == "slashed")
        #expect(matched(contract, "GET", "/slash") == "slashed")
        #expect(matched(contract, "GET", "/pets/7/") == "getPet")
    }

    @Test func unknownPathsAndMethodsMatchNoOperation() throws {
        let contract = try makeContract()
        #expect(contract.match(method: "GET", url: "/pets/1/food") == .noOperation(method: "GET", path: "/pets/1/food"))
        #expect(contract.match(method: "PUT", url: "/pets") == .noOperation(method: "PUT", path: "/pets"))
        #expect(contract.match(method: "GET", url: "/pets//") == .noOperation(method: "GET", path: "/pets//"))
    }

    @Test func headFallsBackToGet() throws {
        let contract = try makeContract()
        #expect(matched(contract, "HEAD", "/pets/1") == "getPet")
    }

    @Test func theServersPathIsThePrefix() throws {
        let servers = """
            servers:
              - url: https://{region}.example.com/{base}/v2
                variables:
                  region: {default: eu}
                  base: {default: api}
              - url: /relative
              - url: http://localhost:8080
            """
        let contract = try makeContract(servers: servers)
        #expect(matched(contract, "GET", "https://other.host/api/v2/pets") == "listPets")
        #expect(matched(contract, "GET", "/relative/pets/1") == "getPet")
        #expect(matched(contract, "GET", "http://127.0.0.1/pets") == "listPets") // the last server has no path
        #expect(matched(contract, "GET", "/api/v2/") == "root")
        #expect(
            contract.match(method: "GET", url: "http://h/api/v2/nothing")
                == .noOperation(method: "GET", path: "/nothing"))

        let prefixed = try makeContract(servers: "servers: [{url: 'https://api.example.com/v1'}]")
        #expect(matched(prefixed, "GET", "https://staging.example.com/v1/pets") == "listPets")
        #expect(prefixed.match(method: "GET", url: "/pets") == .outsideServers)
        #expect(prefixed.match(method: "GET", url: "/v1x/pets") == .outsideServers)
        #expect(prefixed.match(method: "GET", url: "/v1/nothing") == .noOperation(method: "GET", path: "/nothing"))
    }

    @Test func theOptionsServerReplacesTheDocuments() throws {
        let servers = "servers: [{url: 'https://api.example.com/v1'}]"
        let byURL = try makeContract(
            servers: servers, options: OpenAPIContractOptions(server: "https://staging.example.com/v2/"))
        #expect(matched(byURL, "GET", "http://localhost/v2/pets") == "listPets")
        #expect(byURL.match(method: "GET", url: "/v1/pets") == .outsideServers)
        let byPath = try makeContract(servers: servers, options: OpenAPIContractOptions(server: "/base"))
        #expect(matched(byPath, "GET", "/base/pets/1") == "getPet")
        let none = try makeContract(servers: servers, options: OpenAPIContractOptions(server: "http://localhost:9000"))
        #expect(matched(none, "GET", "/pets/1") == "getPet")
    }

    @Test func lookupsDoNotGrowWithTheNumberOfOperations() throws {
        // 5,000 templated paths; 10,000 lookups must stay far below what a scan of every template would cost.
        var paths: [String] = []
        for index in 0..<5000 {
            paths.append(
                #""/resource\#(index)/{id}/items/{item}": {"get": {"operationId": "op\#(index)", "responses": {"200": {"description": "x"}}}}"#
            )
        }
        let text = #"{"openapi": "3.0.3", "paths": {"# + paths.joined(separator: ",") + "}}"
        let contract = try loadContract("/many/openapi.json", reader: TestReader(["/many/openapi.json": text]))
        let clock = ContinuousClock()
        var found = 0
        let cpuStart = threadCPUTime()
        let elapsed = clock.measure {
            for index in 0..<10_000 {
                if case .operation = contract.match(method: "GET", url: "/resource\(index % 5000)/\(index)/items/x") {
                    found += 1
                }
            }
        }
        let cpu = threadCPUTime() - cpuStart
        #expect(found == 10_000)
        print("10,000 lookups among 5,000 operations: \(elapsed) (\(cpu) s of CPU)")
        // About 0.1 s of CPU in a debug build; a scan of every template per lookup would take far more.
        #expect(cpu < 2)
        #expect(elapsed < .seconds(60))
    }
}

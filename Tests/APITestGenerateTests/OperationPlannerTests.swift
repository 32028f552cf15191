import APITestJSON
import APITestOpenAPI
import APITestSuiteWriting
import Testing

@testable import APITestGenerate

/// Requests planned from a document: parameter values in their styles, bodies, credentials as placeholders, the
/// status to expect, and the operations skipped with their reasons.
struct OperationPlannerTests {
    static let document = #"""
        openapi: 3.0.3
        info: {title: Planner, version: "1"}
        servers: [{url: "https://api.example.com/v1"}]
        components:
          securitySchemes:
            key: {type: apiKey, in: header, name: X-API-Key}
            queryKey: {type: apiKey, in: query, name: api_key}
            bearerAuth: {type: http, scheme: bearer}
            basic: {type: http, scheme: basic}
            digest: {type: http, scheme: digest}
            oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: "https://x/token", scopes: {}}}}
            tls: {type: mutualTLS}
        paths:
          /items/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer, minimum: 10}}
            get:
              operationId: getItem
              summary: One item
              parameters:
                - {name: kind, in: query, required: true, schema: {type: string, enum: [big, small]}}
                - {name: limit, in: query, schema: {type: integer}}
                - {name: X-Trace, in: header, required: true, schema: {type: string, format: uuid}}
                - {name: session, in: cookie, required: true, example: abc}
                - {name: tags, in: query, required: true, explode: false, schema: {type: array, items: {type: string}}}
              responses: {"200": {description: ok}, "404": {description: missing}}
          /items:
            post:
              operationId: createItem
              requestBody:
                required: true
                content:
                  application/merge-patch+json:
                    schema: {type: object, required: [name], properties: {name: {type: string}, id: {type: integer, readOnly: true}}}
              responses: {"201": {description: created}, "200": {description: ok}}
            put:
              operationId: replaceItems
              requestBody:
                required: true
                content:
                  application/json:
                    example: {name: 5}
                    schema: {type: object, required: [name], properties: {name: {type: string}}}
              responses: {default: {description: any}}
          /upload:
            post:
              operationId: upload
              requestBody: {required: true, content: {multipart/form-data: {schema: {type: object}}}}
              responses: {"204": {description: done}}
            put:
              operationId: optionalUpload
              requestBody: {content: {application/octet-stream: {}}}
              responses: {"204": {description: done}}
          /form:
            post:
              operationId: form
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, required: [user, remember], properties: {user: {type: string}, remember: {type: boolean}}}
              responses: {"2XX": {description: ok}}
          /old:
            get: {operationId: moved, responses: {"301": {description: moved}, "404": {description: gone}}}
          /gone:
            get: {operationId: gone, responses: {"404": {description: gone}}}
          /secure:
            get: {operationId: apiKeyHeader, security: [{key: []}], responses: {"200": {description: ok}}}
            post: {operationId: bearerAndQueryKey, security: [{bearerAuth: [], queryKey: []}], responses: {"200": {description: ok}}}
            put: {operationId: basicAuth, security: [{basic: []}], responses: {"200": {description: ok}}}
            delete: {operationId: tlsThenOAuth, security: [{tls: []}, {oauth: [read]}], responses: {"200": {description: ok}}}
            patch: {operationId: digestOnly, security: [{digest: []}], responses: {"200": {description: ok}}}
            head: {operationId: optionalAuth, security: [{}, {key: []}], responses: {"200": {description: ok}}}
            options: {operationId: undefinedScheme, security: [{nowhere: []}], responses: {"200": {description: ok}}}
        """#

    func plans() throws -> [String: OperationPlan] {
        let description = try GenerationFixtures.describe(Self.document)
        let planner = OperationPlanner(description: description)
        var result: [String: OperationPlan] = [:]
        for operation in description.operations { result[operation.displayName] = planner.plan(operation) }
        return result
    }

    func test(_ name: String, in plans: [String: OperationPlan]) throws -> Planned {
        guard case .test(let test, let environment)? = plans[name] else {
            throw PlanMissing(name: name, plan: plans[name].map { "\($0)" } ?? "none")
        }
        return Planned(test: test, environment: environment)
    }

    /// A test the planner made, and the environment variables it reads.
    struct Planned {
        var test: SuiteDocument.Test
        var environment: [String]
        var request: SuiteDocument.Request { test.request }
        /// `expect.status`, when it is one code or class (as the planner writes it).
        var status: JSONValue? { test.expect.status.count == 1 ? test.expect.status[0] : nil }
        /// The texts of the notes above the test.
        var notes: [String] { test.notes.map(\.text) }
    }

    struct PlanMissing: Error, CustomStringConvertible {
        var name: String
        var plan: String
        var description: String { "\(name) was not planned as a test: \(plan)" }
    }

    func reason(_ name: String, in plans: [String: OperationPlan]) -> String? {
        guard case .skipped(let reason)? = plans[name] else { return nil }
        return reason
    }

    @Test func parametersInTheirStyles() throws {
        let item = try test("getItem", in: plans())
        #expect(item.request.method == "GET")
        #expect(item.request.url == "items/10?kind=big&tags=string")
        #expect(item.request.headers.map(\.name) == ["X-Trace", "Cookie"])
        #expect(item.request.headers.map(\.value) == ["00000000-0000-4000-8000-000000000000", "session=abc"])
        #expect(item.status == 200)
        #expect(item.test.comments == ["One item"])
        #expect(item.notes.isEmpty)
    }

    @Test func bodies() throws {
        let plans = try plans()
        let create = try test("createItem", in: plans)
        guard case .text(let text, let contentType)? = create.request.body else {
            Issue.record("createItem: \(String(describing: create.request.body))")
            return
        }
        #expect(text == #"{"name":"string"}"#)
        #expect(contentType == "application/merge-patch+json")
        #expect(create.status == 201)

        // The example's name is a number: the schema says string, so a generated body replaces it, with a note.
        let replace = try test("replaceItems", in: plans)
        guard case .json(let json)? = replace.request.body else {
            Issue.record("replaceItems: \(String(describing: replace.request.body))")
            return
        }
        #expect(json == ["name": "string"])
        #expect(replace.status == "2XX")
        #expect(replace.notes.contains { $0.contains("example of the request body (application/json) does not match") })
        #expect(replace.notes.contains { $0.contains("only 'default'") })

        let form = try test("form", in: plans)
        guard case .form(let fields)? = form.request.body else {
            Issue.record("form: \(String(describing: form.request.body))")
            return
        }
        #expect(
            JSONValue.object(JSONObject(fields.map { (key: $0.name, value: $0.value) })) == [
                "user": "string", "remember": true,
            ])

        #expect(reason("upload", in: plans) == "the required body is multipart/form-data")
        let optional = try test("optionalUpload", in: plans)
        #expect(optional.request.body == nil)
    }

    @Test func statuses() throws {
        let plans = try plans()
        let moved = try test("moved", in: plans)
        #expect(moved.status == 301)
        #expect(moved.request.followRedirects == false)
        #expect(reason("gone", in: plans) == "it declares no 2XX or 3XX response (404)")
        #expect(OperationPlanner.expectedStatus(["404", "2xx", "201"])?.status == 201)
        #expect(OperationPlanner.expectedStatus(["3XX"]) == .init(status: "3XX", followRedirects: false))
        #expect(OperationPlanner.expectedStatus([])?.status == "2XX")
    }

    @Test func credentialsArePlaceholders() throws {
        let plans = try plans()
        let header = try test("apiKeyHeader", in: plans)
        #expect(header.request.headers.map(\.name) == ["X-API-Key"])
        #expect(header.request.headers.map(\.value) == ["{{ env.KEY }}"])
        #expect(header.environment == ["KEY"])

        let both = try test("bearerAndQueryKey", in: plans)
        #expect(both.request.headers.map(\.value) == ["Bearer {{ env.BEARER_AUTH }}"])
        #expect(both.request.query.map(\.name) == ["api_key"])
        #expect(both.request.query.map(\.value) == ["{{ env.QUERY_KEY }}"])
        #expect(both.environment == ["BEARER_AUTH", "QUERY_KEY"])

        let basic = try test("basicAuth", in: plans)
        #expect(basic.request.basicAuth?.username == "{{ env.BASIC_USERNAME }}")
        #expect(basic.request.basicAuth?.password == "{{ env.BASIC_PASSWORD }}")

        let oauth = try test("tlsThenOAuth", in: plans)
        #expect(oauth.request.headers.map(\.value) == ["Bearer {{ env.OAUTH }}"])

        let optional = try test("optionalAuth", in: plans)
        #expect(optional.request.headers.isEmpty)

        #expect(reason("digestOnly", in: plans)?.contains("HTTP 'digest' authentication") == true)
        #expect(reason("undefinedScheme", in: plans) == "its security scheme 'nowhere' is not defined in the document")
    }

    @Test(arguments: [
        ("petstore_auth", "PETSTORE_AUTH"), ("bearerAuth", "BEARER_AUTH"), ("api-key", "API_KEY"),
        ("OAuth2", "OAUTH2"), ("2fa", "API_2FA"), ("--", "API_CREDENTIAL"),
    ])
    func environmentNames(_ scheme: String, _ expected: String) {
        #expect(Credentials.environmentName(scheme) == expected)
    }

    @Test func parameterStyles() {
        #expect(
            ParameterSerializer.path(.array([1, 2]), name: "ids", style: "matrix", explode: true) == ";ids=1;ids=2")
        #expect(ParameterSerializer.path(.array([1, 2]), name: "ids", style: "label", explode: false) == ".1,2")
        #expect(ParameterSerializer.path(["a": 1], name: "o", style: "simple", explode: true) == "a=1")
        #expect(ParameterSerializer.path("a/b c", name: "p", style: "simple", explode: false) == "a%2Fb%20c")
        #expect(ParameterSerializer.path("..", name: "p", style: "simple", explode: false) == "%2E%2E")
        #expect(
            ParameterSerializer.query(["x", "y z"], name: "t", style: "form", explode: true) == ["t=x", "t=y%20z"])
        #expect(ParameterSerializer.query(["x", "y"], name: "t", style: "pipeDelimited", explode: false) == ["t=x|y"])
        #expect(ParameterSerializer.query(["a": 1], name: "f", style: "deepObject", explode: true) == ["f%5Ba%5D=1"])
        #expect(ParameterSerializer.cookie(["a", "b"], name: "c", explode: false) == "c=a,b")
        #expect(OperationPlanner.relativeURL("/", query: "") == "./")
        #expect(OperationPlanner.relativeURL("/a:b/c", query: "x=1") == "./a:b/c?x=1")
    }
}

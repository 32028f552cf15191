import APITestJSON
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestImport
@testable import APITestSuiteWriting

/// Every feature of the renderer writes a file that the suite loader (what `apitest validate` runs) accepts, with
/// the values as the model held them, and the notes as comments.
struct SuiteDocumentRendererTests {
    /// A new folder with the files the suites below name: `body.bin`, `photo.png`, `ca.pem`, `client.pem`,
    /// `client-key.pem`.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-import-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in ["body.bin", "photo.png", "ca.pem", "client.pem", "client-key.pem"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    /// Renders `suite` into `suite.yaml` in a new folder and loads it as `apitest validate` does.
    static func load(
        _ suite: SuiteDocument, environment: [String: String] = ["TOKEN": "t", "PASSWORD": "p"]
    ) throws
        -> (text: String, suite: Suite)
    {
        var suite = suite
        suite.schemaReference = "../schemas/apitest.schema.json"
        let text = SuiteDocumentRenderer(suite: suite).render()
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/suite.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            return (text, try SuiteLoader(environment: environment).load(path: path))
        } catch {
            Issue.record("the rendered suite does not load: \(error.render(colored: false))\n\(text)")
            throw error
        }
    }

    /// A suite with one test sending `request`.
    static func suite(_ request: SuiteDocument.Request, name: String = "t") -> SuiteDocument {
        var suite = SuiteDocument(name: "imported")
        suite.tests = [SuiteDocument.Test(name: name, request: request)]
        return suite
    }

    @Test func theModelineHeaderAndNotesAreComments() throws {
        var suite = Self.suite(SuiteDocument.Request(url: "http://127.0.0.1/x"))
        suite.header = ["Imported by `apitest import curl` from 1 command line."]
        suite.notes = [SuiteDocument.Note(location: "line 3", text: "not a curl command: skipped")]
        suite.tests[0].comments = ["curl http://127.0.0.1/x"]
        suite.tests[0].notes = [
            SuiteDocument.Note(location: "argument 4", text: "--connect-timeout 5 is not translated")
        ]
        let (text, loaded) = try Self.load(suite)
        #expect(
            text == """
                # yaml-language-server: $schema=../schemas/apitest.schema.json
                # Imported by `apitest import curl` from 1 command line.
                # line 3: not a curl command: skipped
                name: imported

                tests:
                  # curl http://127.0.0.1/x
                  # argument 4: --connect-timeout 5 is not translated
                  - name: t
                    request:
                      method: GET
                      url: http://127.0.0.1/x

                """)
        #expect(loaded.tests.map(\.name) == ["t"])
    }

    @Test func suiteSettings() throws {
        var suite = Self.suite(SuiteDocument.Request(url: "users"))
        suite.baseURL = "http://127.0.0.1:8080/api/"
        suite.variables = [(name: "token", value: "{{ env.TOKEN }}"), (name: "page", value: 2)]
        suite.defaults.headers = [SuiteDocument.Header("Accept", "application/json")]
        suite.defaults.timeout = 2.5
        suite.defaults.followRedirects = false
        suite.defaults.maxRedirects = 3
        suite.defaults.compressed = false
        var security = SuiteDocument.Security()
        security.allowInvalidCertificates = true
        security.validatesDomainName = false
        security.caFile = "ca.pem"
        security.clientCertificate = "client.pem"
        security.clientKey = "client-key.pem"
        suite.security = security
        let (text, loaded) = try Self.load(suite)
        #expect(text.contains("  timeout: \"2500ms\"\n"))
        #expect(loaded.variables.map(\.name) == ["token", "page"])
        #expect(loaded.defaults.followRedirects == false)
        #expect(loaded.defaults.maxRedirects == 3)
        #expect(loaded.defaults.compressed == false)
        #expect(loaded.defaults.timeout == .milliseconds(2500))
        #expect(loaded.defaults.headers.map(\.name) == ["Accept"])
    }

    @Test func pinsAndCertificates() throws {
        var suite = Self.suite(SuiteDocument.Request(url: "https://127.0.0.1/x"))
        var security = SuiteDocument.Security()
        security.pinning = "publicKey"
        security.pins = [
            "sha256//y+AwyJo7kca+bv+/JhrE2Cd43vqBpVN+eeDW33TSD08=",
            "sha256//AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/AbCdE=",
        ]
        security.allowInvalidCertificates = true
        security.validatesDomainName = false
        suite.security = security
        let (text, _) = try Self.load(suite)
        #expect(text.contains("security:\n  pinning: publicKey\n  pins:\n    - sha256//"))
    }

    @Test func everyRequestSetting() throws {
        var request = SuiteDocument.Request(method: "PATCH", url: "http://127.0.0.1/echo?a=1&b=%20")
        request.query = [(name: "page", value: "2")]
        request.headers = [
            SuiteDocument.Header("X-Empty", ""), SuiteDocument.Header("Authorization", "Bearer {{ env.TOKEN }}"),
        ]
        request.basicAuth = (username: "alice", password: "{{ env.PASSWORD }}")
        request.body = .text("a=1&b=true", contentType: "application/x-www-form-urlencoded")
        request.timeout = 10
        request.followRedirects = true
        request.maxRedirects = 5
        request.compressed = true
        let (_, loaded) = try Self.load(Self.suite(request))
        let spec = try #require(loaded.tests.first?.steps.first?.request)
        #expect(spec.method == "PATCH")
        #expect(spec.headers.map(\.name) == ["X-Empty", "Authorization"])
        if case .basic? = spec.auth {} else { Issue.record("basicAuth is not read as auth.basic") }
        #expect(spec.timeout == .seconds(10))
        #expect(spec.followRedirects == true)
        #expect(spec.maxRedirects == 5)
        #expect(spec.compressed == true)
        #expect(spec.contentType != nil)
    }

    @Test(arguments: [
        SuiteDocument.Body.json(["name": "carol", "tags": ["a", 1, true, .null]]),
        .form([(name: "user", value: "alice"), (name: "remember", value: "true")]),
        .text("{{ env.TOKEN }}\nline two", contentType: nil),
        .file(path: "body.bin", contentType: "application/octet-stream"),
        .multipart([
            SuiteDocument.Part(name: "caption", content: .value("at the beach")),
            SuiteDocument.Part(name: "file", content: .file("photo.png"), filename: "p.png", contentType: "image/png"),
            {
                var part = SuiteDocument.Part(name: "meta", content: .data("{\"a\": 1}"), filename: "meta.json")
                part.headers = [SuiteDocument.Header("X-Part", "4")]
                return part
            }(),
        ]),
    ])
    func everyBody(_ body: SuiteDocument.Body) throws {
        var request = SuiteDocument.Request(method: "POST", url: "http://127.0.0.1/echo")
        request.body = body
        let (_, loaded) = try Self.load(Self.suite(request))
        let spec = try #require(loaded.tests.first?.steps.first?.request)
        #expect(spec.body != nil)
    }

    @Test func expectationsAndCaptures() throws {
        var test = SuiteDocument.Test(
            name: "login", request: SuiteDocument.Request(method: "POST", url: "http://127.0.0.1/login"))
        test.tags = ["smoke", "auth"]
        test.expect.status = [200, "2xx"]
        test.expect.headers = [(name: "Content-Type", check: ["contains": "json"])]
        test.expect.json = [
            (path: "$.token", check: ["exists": true]), (path: "$.user.name", check: "alice"),
            (path: "$.headers[?@[0] == 'X-A']", check: ["filters": ["count"], "equals": 1]),
        ]
        test.expect.assertions = [["query": "duration", "lessThan": 500]]
        test.captures = [(name: "token", query: ["jsonpath": "$.token"])]
        var suite = SuiteDocument(name: "s")
        suite.tests = [
            test, SuiteDocument.Test(name: "login", request: SuiteDocument.Request(url: "http://127.0.0.1/me")),
        ]
        let (text, loaded) = try Self.load(suite)
        #expect(loaded.tests.map(\.name) == ["login", "login (2)"])
        #expect(loaded.tests.first?.tags == ["smoke", "auth"])
        #expect(text.contains("    capture:\n      token:\n        jsonpath: $.token\n"))
    }

    @Test func awkwardTextReadsBack() throws {
        let awkward = "a: b # c\t\"quoted\" \\ ü {x} - 12 true \u{7}"
        var request = SuiteDocument.Request(method: "POST", url: "http://127.0.0.1/echo")
        request.headers = [SuiteDocument.Header("X-Awkward", "yes: no #1")]
        request.body = .text(awkward, contentType: "text/plain; charset=utf-8")
        let (_, loaded) = try Self.load(Self.suite(request, name: "true"))
        let spec = try #require(loaded.tests.first?.steps.first?.request)
        #expect(loaded.tests.first?.name == "true")
        guard case .raw(let template)? = spec.body else {
            Issue.record("not a raw body: \(String(describing: spec.body))")
            return
        }
        #expect(template.source == awkward)
    }

    @Test func durations() {
        #expect(SuiteDocumentRenderer.duration(10) == "10s")
        #expect(SuiteDocumentRenderer.duration(0.25) == "250ms")
        #expect(SuiteDocumentRenderer.duration(1.5) == "1500ms")
        #expect(SuiteDocumentRenderer.duration(0.0005) == "0.0005s")
    }

    @Test func environmentVariablesAreListedInOrder() {
        var request = SuiteDocument.Request(url: "http://127.0.0.1/{{ env.PATH_PART }}")
        request.headers = [SuiteDocument.Header("Authorization", "Bearer {{ env.TOKEN }}")]
        request.basicAuth = (username: "u", password: "{{ env.PATH_PART }}")
        #expect(Self.suite(request).environmentVariables == ["PATH_PART", "TOKEN"])
    }

    // MARK: - What import does not write but the model holds (generate, later writers)

    @Test func setupTeardownRowsSchemaOpenAPIAndClosingComments() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"type": "object"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/item.schema.json"))
        try Data(
            #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#.utf8
        ).write(to: URL(fileURLWithPath: folder + "/api.json"))
        var suite = SuiteDocument(name: "general")
        suite.variablesComments = ["Set where the API runs with --var base=<url>."]
        suite.variables = [(name: "base", value: "http://127.0.0.1:1/")]
        suite.baseURL = "{{ base }}"
        suite.openAPI = SuiteDocument.OpenAPISetting(file: "api.json")
        suite.setup = [SuiteDocument.Test(name: "row", request: SuiteDocument.Request(method: "POST", url: "login"))]
        var row = SuiteDocument.Test(name: "row", request: SuiteDocument.Request(url: "items/{{ id }}"))
        row.forEach = [["id": 1], ["id": 2]]
        row.expect.status = [200]
        row.expect.schema = "item.schema.json"
        row.notes = [SuiteDocument.Note(location: "", text: "a remark\nof two lines")]
        suite.tests = [row]
        suite.closingComments = ["listItems (GET /items): skipped: the response is not JSON"]
        suite.teardown = [
            SuiteDocument.Test(name: "row", request: SuiteDocument.Request(method: "DELETE", url: "items/1"))
        ]
        let text = SuiteDocumentRenderer(suite: suite).render()
        #expect(
            text == """
                name: general
                # Set where the API runs with --var base=<url>.
                variables:
                  base: http://127.0.0.1:1/
                baseURL: "{{ base }}"
                openapi:
                  file: api.json

                setup:
                  - name: row
                    request:
                      method: POST
                      url: login

                tests:
                  # a remark\\nof two lines
                  - name: row (2)
                    forEach:
                      - id: 1
                      - id: 2
                    request:
                      method: GET
                      url: "items/{{ id }}"
                    expect:
                      status: 200
                      schema: item.schema.json
                  # listItems (GET /items): skipped: the response is not JSON

                teardown:
                  - name: row (3)
                    request:
                      method: DELETE
                      url: items/1

                """)
        let path = folder + "/suite.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try SuiteLoader(environment: [:]).load(path: path)
        #expect(loaded.setup.count == 1)
        #expect(loaded.tests.count == 2)
        #expect(loaded.tests.allSatisfy { $0.steps.first?.expect.schema != nil })
        #expect(loaded.teardown.count == 1)
        #expect(loaded.openapi != nil)
    }
}

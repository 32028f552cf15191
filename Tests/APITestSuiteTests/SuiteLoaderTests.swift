import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

@Suite("Loading every key")
struct SuiteLoaderTests {
    static let fullSuite = """
        name: Users API
        baseURL: http://127.0.0.1:{{ port }}/api/
        variables: {port: "8080", user: alice, password: "{{ env.API_PASSWORD }}"}
        defaults:
          headers: {Accept: application/json}
          timeout: 10s
          followRedirects: false
          maxRedirects: 10
        tests:
          - name: list admins
            tags: [smoke, users]
            request:
              method: post
              url: users
              query: {page: 1, filter: {role: admin}, ids: [1, 2]}
              headers: {Authorization: "Bearer {{ user }}"}
              basicAuth: {username: "{{ user }}", password: "{{ password }}"}
              body: "raw text"
              contentType: text/plain
              timeout: 2s
              followRedirects: false
              maxRedirects: 3
            expect:
              status: [200, 2xx]
              headers:
                Content-Type: {contains: json}
                X-Request-Id: {matches: '^[0-9a-f-]+$'}
                Cache-Control: no-cache
              json:
                $.users[0].name: alice
                $.count: {greaterThan: 0}
                $.users: {exists: true}
            capture:
              token: {jsonpath: $.token}
              location: {header: Location}
          - name: several steps
            steps:
              - request: {method: POST, url: users, json: {name: "carol-{{ user }}"}}
                expect: {status: 201}
                capture: {id: {jsonpath: $.id}}
              - request: {url: "users/{{ id }}"}
        """

    @Test func loadsTheTopLevel() throws {
        let suite = try loadSuite(Self.fullSuite, environment: ["API_PASSWORD": "s3cret", "OTHER": "x"])
        #expect(suite.file == "suites/test.yaml")
        #expect(suite.directory == FileManager.default.currentDirectoryPath + "/suites")
        #expect(suite.name == "Users API")
        #expect(suite.baseURL?.source == "http://127.0.0.1:{{ port }}/api/")
        #expect(suite.baseURL?.referencedNames == ["port"])
        #expect(suite.variables.map(\.name) == ["port", "user", "password"])
        #expect(suite.variables[0].location == SourceLocation(file: "suites/test.yaml", line: 3, column: 13))
        #expect(suite.environment == ["API_PASSWORD": "s3cret"])
        #expect(suite.defaults.headers.map(\.name) == ["Accept"])
        #expect(suite.defaults.headers.first?.value.source == "application/json")
        #expect(suite.defaults.timeout == .seconds(10))
        #expect(suite.defaults.followRedirects == false)
        #expect(suite.defaults.maxRedirects == 10)
        #expect(suite.tests.map(\.name) == ["list admins", "several steps"])
        #expect(suite.warnings.isEmpty)
    }

    @Test func loadsARequest() throws {
        let suite = try loadSuite(Self.fullSuite, environment: ["API_PASSWORD": "s3cret"])
        let test = try #require(suite.tests.first)
        #expect(test.tags == ["smoke", "users"])
        #expect(test.location == SourceLocation(file: "suites/test.yaml", line: 10, column: 5))
        #expect(test.steps.count == 1)
        let request = try #require(test.steps.first?.request)
        #expect(request.method == "POST")
        #expect(request.url.source == "users")
        #expect(request.location.line == 13)
        let query = try #require(request.query)
        let context = try suite.makeContext()
        #expect(try query.render(context) == ["page": 1, "filter": ["role": "admin"], "ids": [1, 2]])
        #expect(request.headers.map(\.name) == ["Authorization"])
        #expect(try request.headers[0].value.render(context) == "Bearer alice")
        guard case .basic(let credentials)? = request.auth else {
            Issue.record("basicAuth is not read as auth.basic")
            return
        }
        #expect(try credentials.user.render(context) == "alice")
        #expect(try credentials.password.render(context) == "s3cret")
        guard case .raw(let body) = request.body else {
            Issue.record("expected a raw body")
            return
        }
        #expect(body.source == "raw text" && body.isLiteral)
        #expect(body.location == SourceLocation(file: "suites/test.yaml", line: 18, column: 13))
        #expect(request.contentType?.source == "text/plain")
        #expect(request.timeout == .seconds(2))
        #expect(request.followRedirects == false)
        #expect(request.maxRedirects == 3)
    }

    @Test func loadsExpectationsAndCaptures() throws {
        let suite = try loadSuite(Self.fullSuite, environment: ["API_PASSWORD": "s3cret"])
        let step = try #require(suite.tests.first?.steps.first)
        #expect(step.expect.status?.description == "200 or 2xx")
        #expect(step.expect.status?.location == SourceLocation(file: "suites/test.yaml", line: 24, column: 15))
        let headers = step.expect.headerAssertions
        #expect(headers.map(\.query) == [.header("Content-Type"), .header("X-Request-Id"), .header("Cache-Control")])
        #expect(headers.map(\.subject) == ["header Content-Type", "header X-Request-Id", "header Cache-Control"])
        #expect(headers.map(\.predicate) == [.contains, .matches, .equals])
        #expect(try headers[2].argument.render(TemplateContext()) == "no-cache")
        #expect(try headers[1].argument.render(TemplateContext()) == "^[0-9a-f-]+$")
        #expect(headers[0].location == SourceLocation(file: "suites/test.yaml", line: 26, column: 9))
        let json = step.expect.jsonAssertions
        #expect(json.map(\.subject) == ["$.users[0].name", "$.count", "$.users"])
        #expect(json.map(\.predicate) == [.equals, .greaterThan, .exists])
        #expect(json[1].argument == .integer(0))
        #expect(json[2].argument == .bool(true))
        #expect(step.captures.map(\.name) == ["token", "location"])
        #expect(step.captures.map(\.query) == [.jsonpath(try JSONPath("$.token")), .header("Location")])
        #expect(step.captures[0].location == SourceLocation(file: "suites/test.yaml", line: 34, column: 7))
    }

    @Test func loadsSteps() throws {
        let suite = try loadSuite(Self.fullSuite, environment: ["API_PASSWORD": "s3cret"])
        let test = try #require(suite.tests.last)
        #expect(test.steps.count == 2)
        #expect(test.steps[0].location == SourceLocation(file: "suites/test.yaml", line: 38, column: 9))
        #expect(test.steps[0].request.method == "POST")
        #expect(test.steps[0].expect.status?.accepts(201) == true)
        #expect(test.steps[0].expect.status?.accepts(200) == false)
        #expect(test.steps[0].captures.map(\.name) == ["id"])
        #expect(test.steps[1].request.method == "GET")
        #expect(test.steps[1].request.url.referencedNames == ["id"])
        #expect(test.steps[1].expect.status == nil)
        guard case .json(let body) = test.steps[0].request.body else {
            Issue.record("expected a JSON body")
            return
        }
        #expect(try body.render(suite.makeContext()) == ["name": "carol-alice"])
    }

    @Test func variablesGetBuiltInValuesOnlyWhenTheyUseThem() throws {
        let plain = try loadSuite(
            """
            variables: {host: example.com}
            tests:
              - name: t
                request: {url: "https://{{ host }}/{{ random.uuid }}"}
            """)
        // Steps get fresh built-ins from the runner; the suite's context makes none it does not need.
        #expect(try !plain.makeContext().contains("random.uuid"))
        let using = try loadSuite(
            """
            variables: {run: "run-{{ random.hex }}", day: "{{ now.date }}"}
            tests:
              - name: t
                request: {url: "https://example.com/{{ run }}"}
            """)
        let context = try using.makeContext()
        let run = try #require(
            context["run"].flatMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            })
        #expect(run.wholeMatch(of: /run-[0-9a-f]{16}/) != nil, "\(run)")
        #expect(context.contains("now.iso"))
    }

    @Test func appliesDefaults() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: t
                request: {url: "https://example.com/x"}
            """, file: "dir/health-checks.yml")
        #expect(suite.name == "health-checks")
        #expect(suite.baseURL == nil)
        #expect(suite.defaults == RequestDefaults())
        #expect(suite.defaults.followRedirects)
        let step = try #require(suite.tests.first?.steps.first)
        #expect(step.request.method == "GET")
        #expect(step.request.query == nil && step.request.body == nil && step.request.timeout == nil)
        #expect(step.expect.status == nil)
        #expect(step.expect.acceptsStatus(204))
        #expect(!step.expect.acceptsStatus(304))
        #expect(!step.expect.acceptsStatus(404))
    }

    @Test func emptyMapsMayBeLeftBlank() throws {
        let suite = try loadSuite(
            """
            variables:
            defaults:
            tests:
              - name: t
                request: {url: "http://h/", headers: }
                expect:
                capture:
            """)
        #expect(suite.variables.isEmpty)
        #expect(suite.tests[0].steps[0].request.headers.isEmpty)
        #expect(suite.tests[0].steps[0].expect == Expectations())
        #expect(
            errors("tests:\n  - name: t\n    request:\n") == [
                "suites/test.yaml:3:13: error: request needs a 'url'"
            ])
    }

    @Test func keepsYAMLScalarTypes() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: t
                request:
                  url: http://h/
                  json: {i: 12, f: 1.5, e: 1e3, h: 0x1F, b: true, n: null, t: ~, q: "12", s: yes, o: off, l: [1, "x"]}
            """)
        guard case .json(let body) = suite.tests[0].steps[0].request.body else {
            Issue.record("expected a JSON body")
            return
        }
        let expected: JSONValue = [
            "i": .integer(12), "f": .double(1.5), "e": .double(1000), "h": .integer(31), "b": true, "n": nil,
            "t": nil, "q": "12", "s": "yes", "o": "off", "l": [1, "x"],
        ]
        let rendered = try body.render(TemplateContext())
        #expect(rendered == expected)
        if case .object(let object) = rendered {
            #expect(object.keys == ["i", "f", "e", "h", "b", "n", "t", "q", "s", "o", "l"])
            #expect(object["q"]?.stringValue == "12")
            if case .integer = object["i"] {} else { Issue.record("12 should stay an integer") }
        }
    }

    @Test func loadsFormAndFileBodies() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("payload", to: "fixtures/data.bin", in: directory)
        let file = try writeFile(
            """
            baseURL: http://localhost/
            tests:
              - name: form
                request: {method: POST, url: a, form: {user: alice, tags: [a, b]}}
              - name: file
                request: {method: PUT, url: b, bodyFile: fixtures/../fixtures/data.bin, contentType: image/png}
            """, to: "suite.yaml", in: directory)
        let suite = try SuiteLoader(environment: [:]).load(path: file)
        #expect(suite.directory == URL(fileURLWithPath: directory).standardizedFileURL.path)
        guard case .form(let form) = suite.tests[0].steps[0].request.body else {
            Issue.record("expected a form body")
            return
        }
        #expect(try form.render(TemplateContext()) == ["user": "alice", "tags": ["a", "b"]])
        let expectedPath = URL(fileURLWithPath: directory + "/fixtures/data.bin").standardizedFileURL.path
        #expect(suite.tests[1].steps[0].request.body == .file(absolutePath: expectedPath))
        #expect(suite.tests[1].steps[0].request.contentType?.source == "image/png")
    }

    @Test(arguments: [
        ("200", "200", [200], [201, 500]),
        ("[200, 201]", "200 or 201", [200, 201], [202]),
        ("2xx", "2xx", [200, 204, 299], [199, 300]),
        ("[2xx, 304]", "2xx or 304", [201, 304], [301]),
        ("[\"201\", 3XX, 404]", "201, 3xx or 404", [201, 302, 404], [200, 405]),
    ])
    func loadsStatusForms(spec: String, description: String, accepted: [Int], rejected: [Int]) throws {
        let suite = try loadSuite(
            """
            tests:
              - name: t
                request: {url: "http://h/"}
                expect: {status: \(spec)}
            """)
        let status = try #require(suite.tests[0].steps[0].expect.status)
        #expect(status.description == description)
        for code in accepted { #expect(status.accepts(code), "\(code)") }
        for code in rejected { #expect(!status.accepts(code), "\(code)") }
    }

    @Test func treatsNonPredicateMapsAsObjects() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: t
                request: {url: "http://h/"}
                expect:
                  json:
                    $.user: {name: alice, role: admin}
                    $.one: {id: 1}
                    $.wrapped: {equals: {contains: 1}}
                    $.near: {equals: {equal: 1}}
                    $.list: {oneOf: [1, 2]}
            """)
        let json = suite.tests[0].steps[0].expect.jsonAssertions
        #expect(json.map(\.predicate) == [.equals, .equals, .equals, .equals, .oneOf])
        #expect(try json[0].argument.render(TemplateContext()) == ["name": "alice", "role": "admin"])
        #expect(try json[1].argument.render(TemplateContext()) == ["id": 1])
        #expect(try json[2].argument.render(TemplateContext()) == ["contains": 1])
        #expect(try json[3].argument.render(TemplateContext()) == ["equal": 1])
        #expect(try json[4].argument.render(TemplateContext()) == [1, 2])
        #expect(suite.warnings.isEmpty)
    }

    @Test func aMisspeltPredicateIsAnErrorWithItsSuggestion() {
        #expect(
            errors(
                """
                tests:
                  - name: t
                    request: {url: "http://h/"}
                    expect:
                      json:
                        $.near: {equal: 1}
                """) == [
                    "suites/test.yaml:6:18: error: 'equal' is not a predicate, so this map is compared as an object; "
                        + "did you mean 'equals'? (write {equals: {...}} to compare with an object on purpose)"
                ])
    }

    @Test func headerArgumentsAreText() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: t
                request: {url: "http://h/"}
                expect:
                  headers:
                    X-Count: 5
                    X-Version: {oneOf: [1.0, "2"]}
                    Content-Length: {lessThan: 100}
            """)
        let headers = suite.tests[0].steps[0].expect.headerAssertions
        #expect(try headers[0].argument.render(TemplateContext()) == "5")
        #expect(try headers[1].argument.render(TemplateContext()) == ["1.0", "2"])
        #expect(try headers[2].argument.render(TemplateContext()) == 100)
    }

    @Test func expandsMergeKeys() throws {
        let suite = try loadSuite(
            """
            variables:
              common: &common {Accept: application/json, X-Team: core}
            tests:
              - name: t
                request:
                  url: "http://h/"
                  headers:
                    <<: *common
                    X-Team: payments
            """)
        let headers = suite.tests[0].steps[0].request.headers
        #expect(headers.map(\.name) == ["Accept", "X-Team"])
        #expect(headers.map(\.value.source) == ["application/json", "payments"])
    }

    @Test func acceptsEveryDurationForm() throws {
        let suite = try loadSuite(
            """
            defaults: {timeout: 1.5}
            tests:
              - {name: a, request: {url: "http://h/", timeout: 250ms}}
              - {name: b, request: {url: "http://h/", timeout: 2m}}
              - {name: c, request: {url: "http://h/", timeout: 1h}}
              - {name: d, request: {url: "http://h/", timeout: 3}}
            """)
        #expect(suite.defaults.timeout == .milliseconds(1500))
        #expect(
            suite.tests.map(\.steps[0].request.timeout) == [
                .milliseconds(250), .seconds(120), .seconds(3600), .seconds(3),
            ])
    }

    @Test func acceptsAbsoluteURLsAndCapturedURLsWithoutBaseURL() throws {
        let suite = try loadSuite(
            """
            variables: {host: "http://localhost:8080"}
            tests:
              - name: t
                steps:
                  - request: {url: "{{ host }}/login"}
                    capture: {next: {header: Location}}
                  - request: {url: "{{ next }}"}
                  - request: {url: "HTTPS://example.com"}
            """)
        #expect(suite.tests[0].steps.count == 3)
    }
}

// MARK: - Helpers

extension Expectations {
    /// The assertions on headers, in order.
    var headerAssertions: [Assertion] {
        assertions.filter { if case .header = $0.query { true } else { false } }
    }

    /// The assertions with a JSONPath query, in order.
    var jsonAssertions: [Assertion] {
        assertions.filter { if case .jsonpath = $0.query { true } else { false } }
    }
}

import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

@Suite("Templates")
struct TemplateTests {
    let here = SourceLocation(file: "f.yaml", line: 3, column: 10)

    // MARK: - Parsing

    @Test func parsesLiteralAndPlaceholderSegments() throws {
        let template = try Template(parsing: "Bearer {{ token }} and {{env.HOME}}{{token}}", location: here)
        #expect(
            template.segments == [
                .literal("Bearer "),
                .placeholder(name: "token", location: SourceLocation(file: "f.yaml", line: 3, column: 17), length: 11),
                .literal(" and "),
                .placeholder(
                    name: "env.HOME", location: SourceLocation(file: "f.yaml", line: 3, column: 33), length: 12),
                .placeholder(name: "token", location: SourceLocation(file: "f.yaml", line: 3, column: 45), length: 9),
            ])
        #expect(template.referencedNames == ["token", "env.HOME"])
        #expect(!template.isLiteral)
        #expect(template.singlePlaceholderName == nil)
        #expect(try Template(parsing: "{{ id }}", location: here).singlePlaceholderName == "id")
        #expect(try Template(parsing: "a } { }} b", location: here).isLiteral)
    }

    @Test(arguments: [
        ("x {{ y", "'{{' is not closed by '}}'", 2),
        ("{{ a {{ b }}", "'{{' is not closed by '}}'", 0),
        ("{{ }}", "empty placeholder '{{ }}'; write '{{ name }}'", 0),
        ("ab{{ 1x }}", "invalid variable name '1x' in placeholder; names match [A-Za-z_][A-Za-z0-9_.-]*", 2),
        ("{{ env. }}", "'env.' does not name an environment variable; write '{{ env.NAME }}'", 0),
    ])
    func rejectsBadSyntax(text: String, message: String, offset: Int) {
        do {
            _ = try Template(parsing: text, location: here)
            Issue.record("expected \(text) to fail")
        } catch {
            #expect(error.message == message)
            if case .syntax(let at, _) = error.kind { #expect(at == offset) } else { Issue.record("not syntax") }
        }
    }

    // MARK: - Rendering

    @Test func rendersTextAndTypedValues() throws {
        var context = TemplateContext()
        context.set("name", "alice", secret: false)
        context.set("count", 5, secret: false)
        context.set("ids", [1, 2], secret: false)
        context.set("filter", ["role": "admin"], secret: false)
        context.set("ok", true, secret: false)
        context.set("none", nil, secret: false)
        let text = try Template(
            parsing: "{{name}}/{{ count }}/{{ ids }}/{{ filter }}/{{ ok }}/{{ none }}", location: here)
        #expect(try text.render(context) == #"alice/5/[1,2]/{"role":"admin"}/true/null"#)
        #expect(try Template(parsing: "{{ count }}", location: here).renderValue(context) == 5)
        #expect(try Template(parsing: "{{ count }}", location: here).render(context) == "5")
        #expect(try Template(parsing: " {{ count }}", location: here).renderValue(context) == " 5")
        let value = TemplateValue.object([
            .init(key: "n", value: .string(try Template(parsing: "{{ count }}", location: here))),
            .init(key: "list", value: .array([.string(try Template(parsing: "{{ ids }}", location: here)), .null])),
            .init(key: "s", value: .string(try Template(parsing: "#{{ count }}", location: here))),
        ])
        #expect(try value.render(context) == ["n": 5, "list": [[1, 2], nil], "s": "#5"])
        #expect(value.referencedNames == ["count", "ids"])
    }

    @Test func undefinedNamesFailAtRenderTime() throws {
        let template = try Template(parsing: "x{{ gone }}", location: here)
        do {
            _ = try template.render(TemplateContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .undefinedVariable(name: "gone"))
            #expect(error.message == "undefined variable 'gone'")
            #expect(error.location == SourceLocation(file: "f.yaml", line: 3, column: 11))
        }
        do {
            _ = try Template(parsing: "{{ env.NOPE }}", location: here).render(TemplateContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "f.yaml:3:10: environment variable 'NOPE' is not set")
        }
    }

    // MARK: - Context

    @Test func contextRendersVariablesInOrderWithOverridesAndSecrets() throws {
        let suite = try loadSuite(
            """
            variables:
              host: example.com
              base: "https://{{ host }}"
              url: "{{ base }}/v1"
              port: 8080
              ids: [1, 2]
              password: "{{ env.API_PASSWORD }}"
              header: "Basic {{ password }}"
              user: alice
              role: "{{ env.ROLE }}"
            tests:
              - name: t
                request:
                  url: "{{ url }}/{{ port }}"
                  json: {port: "{{ port }}", ids: "{{ ids }}", text: "p{{ port }}", pw: "{{ password }}"}
                  query: {port: "{{ port }}"}
                expect:
                  json: {$.port: "{{ port }}", $.ids: {oneOf: ["{{ ids }}"]}}
            """, environment: ["API_PASSWORD": "s3cret", "ROLE": "admin", "UNUSED": "x"],
            overrides: ["user": "bob", "role": "guest", "extra": "1"])
        // `role` is overridden, so its `env.ROLE` is neither needed nor read.
        #expect(suite.environment == ["API_PASSWORD": "s3cret"])
        let context = try suite.makeContext()
        #expect(context["url"] == "https://example.com/v1")
        #expect(context["port"] == 8080)
        #expect(context["user"] == "bob")
        #expect(context["role"] == "guest")
        #expect(context["extra"] == "1")
        #expect(context["header"] == "Basic s3cret")
        #expect(context.isSecret("password") && context.isSecret("header") && context.isSecret("env.API_PASSWORD"))
        #expect(!context.isSecret("user") && !context.isSecret("role") && !context.isSecret("url"))
        #expect(context.secretTexts == ["Basic s3cret", "s3cret"])

        let step = suite.tests[0].steps[0]
        #expect(try step.request.url.render(context) == "https://example.com/v1/8080")
        guard case .json(let body) = step.request.body else {
            Issue.record("expected a JSON body")
            return
        }
        #expect(try body.render(context) == ["port": 8080, "ids": [1, 2], "text": "p8080", "pw": "s3cret"])
        #expect(try step.request.query?.render(context) == ["port": 8080])
        #expect(try step.expect.jsonAssertions[0].argument.render(context) == 8080)
        #expect(try step.expect.jsonAssertions[1].argument.render(context) == [[1, 2]])
    }

    @Test func capturesAreSetAtRunTime() throws {
        var context = TemplateContext(environment: ["TOKEN": "t0ken"])
        context.set("id", 42, secret: false)
        context.set("session", "abc", secret: true)
        #expect(context.contains("id") && context.contains("env.TOKEN"))
        #expect(context.secretTexts == ["t0ken", "abc"])
        context.set("session", "public", secret: false)
        #expect(context.secretTexts == ["t0ken"])
        #expect(try Template(parsing: "/users/{{ id }}", location: here).render(context) == "/users/42")
    }

    // MARK: - Names checked at load time

    @Test func undefinedNamesAreCaughtAtLoad() {
        let found = diagnostics(
            """
            baseURL: "http://h/{{ prefx }}"
            variables:
              prefix: v1
              a: "{{ b }}"
              b: x
            tests:
              - name: login
                request: {url: login}
                capture: {token: {jsonpath: $.token}}
              - name: flow
                steps:
                  - request: {url: "a/{{ id }}", headers: {X: "{{ env.NOT_SET }}"}}
                    capture: {id: {jsonpath: $.id}}
                  - request: {url: "b/{{ id }}/{{ later }}"}
                    expect: {json: {$.id: "{{ id }}"}}
                  - request:
                      url: "c/{{ token }}"
                      body: |
                        line one
                        two {{ nothing }}
                    capture: {later: {header: X}}
            """)
        #expect(
            found.map(DiagnosticRenderer.oneLine) == [
                "suites/test.yaml:1:20: error: undefined variable 'prefx'; did you mean 'prefix'?",
                "suites/test.yaml:4:7: error: undefined variable 'b' (\'b\' is defined later in 'variables'; "
                    + "a variable can use only those before it)",
                "suites/test.yaml:12:27: error: undefined variable 'id' ('id' is captured by this step, from its "
                    + "response; only later steps can use it)",
                "suites/test.yaml:12:52: error: environment variable 'NOT_SET' is not set",
                "suites/test.yaml:14:36: error: undefined variable 'later' ('later' is captured by a later step; "
                    + "a step can use only captures of earlier steps)",
                "suites/test.yaml:17:19: error: undefined variable 'token' ('token' is captured in test 'login'; "
                    + "captures are visible only in their own test)",
                "suites/test.yaml:20:17: error: undefined variable 'nothing'",
            ])
        #expect(found.map(\.length) == [11, 7, 8, 17, 11, 11, 13])
    }

    @Test func overriddenVariablesAreNotChecked() throws {
        let yaml = """
            variables: {password: "{{ env.MISSING }}"}
            tests: [{name: t, request: {url: "http://h/{{ password }}/{{ extra }}"}}]
            """
        #expect(errors(yaml).count == 2)
        let suite = try loadSuite(yaml, overrides: ["password": "pw", "extra": "e"])
        #expect(try suite.tests[0].steps[0].request.url.render(suite.makeContext()) == "http://h/pw/e")
    }
}

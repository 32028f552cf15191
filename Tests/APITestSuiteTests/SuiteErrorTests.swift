import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Every kind of load error, with its exact location and message.
@Suite("Load errors")
struct SuiteErrorTests {
    let statusHint = "use a code like 200, a class like 2xx, or a list of them"

    // MARK: - File level

    @Test func emptyFile() {
        #expect(errors("") == ["suites/test.yaml:1:1: error: the suite file is empty; it needs 'tests'"])
        #expect(
            errors("# only a comment\n") == ["suites/test.yaml:1:1: error: the suite file is empty; it needs 'tests'"])
    }

    @Test func topLevelNotAMap() {
        #expect(
            errors("- a\n- b\n") == [
                "suites/test.yaml:1:1: error: expected a map at the top level of the suite, found a list"
            ])
        #expect(
            errors("just text") == [
                "suites/test.yaml:1:1: error: expected a map at the top level of the suite, found a string"
            ])
    }

    @Test func testsMissingOrEmpty() {
        #expect(errors("name: x\n") == ["suites/test.yaml:1:1: error: the suite has no 'tests'; add a list of tests"])
        #expect(
            errors("name: x\ntests: []\n") == [
                "suites/test.yaml:2:8: error: 'tests' is empty; add at least one test"
            ])
        #expect(errors("tests: {a: 1}\n") == ["suites/test.yaml:1:8: error: expected a list for 'tests', found a map"])
    }

    @Test func malformedYAML() {
        #expect(
            errors("tests:\n  - name: \"unterminated\n    request: {url: x}") == [
                "suites/test.yaml:2:11: error: invalid YAML: found unexpected end of stream "
                    + "(while scanning a quoted scalar that starts here; the file ends at line 3 before it is closed)"
            ])
        #expect(
            errors("tests: [a, b\n") == [
                "suites/test.yaml:1:8: error: invalid YAML: did not find expected ',' or ']' "
                    + "(while parsing a flow sequence that starts here; the file ends at line 2 before it is closed)"
            ])
        // Not at the end of the file: the problem's own place, with the context as a note.
        #expect(
            errors("tests: [a, b\nx: [\n") == [
                "suites/test.yaml:2:2: error: invalid YAML: did not find expected ',' or ']' "
                    + "(while parsing a flow sequence at line 1, column 8)"
            ])
        #expect(
            errors("a: b\n c: d\n") == [
                "suites/test.yaml:2:3: error: invalid YAML: mapping values are not allowed in this context"
            ])
        #expect(
            errors("tests:\n\t- a\n") == [
                "suites/test.yaml:2:1: error: invalid YAML: found character that cannot start any token "
                    + "(YAML does not allow tabs for indentation; use spaces)"
            ])
    }

    @Test func duplicateKey() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    name: b
                    request: {url: "http://h/"}
                """) == ["suites/test.yaml:3:5: error: duplicate key 'name' (first defined at suites/test.yaml:2:5)"])
    }

    @Test func missingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loader = SuiteLoader(environment: [:])
        #expect(throws: SuiteLoadError.self) { try loader.load(path: directory + "/nope.yaml") }
        do {
            _ = try loader.load(path: directory + "/nope.yaml")
        } catch {
            #expect(error.oneLineSummary == "\(directory)/nope.yaml:1:1: error: suite file not found")
            #expect(error.source == nil)
        }
        do {
            _ = try loader.load(path: directory)
        } catch {
            #expect(error.oneLineSummary == "\(directory):1:1: error: expected a suite file, found a directory")
        }
    }

    // MARK: - Keys and types

    @Test func unknownKeysWithSuggestions() {
        #expect(
            errors(
                """
                nmae: x
                tests:
                  - name: t
                    reqest: {url: "http://h/"}
                    expect:
                      stauts: 200
                      bogus: 1
                """) == [
                    "suites/test.yaml:1:1: error: unknown key 'nmae' in the suite; did you mean 'name'?",
                    "suites/test.yaml:4:5: error: unknown key 'reqest' in test; did you mean 'request'?",
                    "suites/test.yaml:6:7: error: unknown key 'stauts' in expect; did you mean 'status'?",
                    "suites/test.yaml:7:7: error: unknown key 'bogus' in expect",
                ])
    }

    @Test func wrongTypes() {
        #expect(
            errors(
                """
                defaults:
                  headers: [Accept]
                  followRedirects: maybe
                  maxRedirects: -1
                tests:
                  - name: t
                    request:
                      url: [a]
                      query: 3
                      form: abc
                """) == [
                    "suites/test.yaml:2:12: error: expected a map for 'headers', found a list",
                    "suites/test.yaml:3:20: error: expected true or false for 'followRedirects', found a string",
                    "suites/test.yaml:4:17: error: 'maxRedirects' must be between 0 and 1000, found -1",
                    "suites/test.yaml:8:12: error: expected a string for 'url', found a list",
                    "suites/test.yaml:9:14: error: expected a map for 'query', found a number",
                    "suites/test.yaml:10:13: error: expected a map for 'form', found a string",
                ])
    }

    @Test func missingRequiredKeys() {
        #expect(
            errors(
                """
                tests:
                  - name: x
                  - request: {url: "http://h/"}
                  - name: s
                    steps:
                      - expect: {status: 200}
                """) == [
                    "suites/test.yaml:2:5: error: test 'x' needs 'request' or 'steps'",
                    "suites/test.yaml:3:5: error: test #2 needs a 'name'",
                    "suites/test.yaml:6:9: error: step 1 of test 's' needs a 'request'",
                ])
    }

    @Test func bothRequestAndSteps() {
        #expect(
            errors(
                """
                tests:
                  - name: x
                    request: {url: "http://h/"}
                    expect: {status: 200}
                    steps:
                      - request: {url: "http://h/"}
                """) == [
                    "suites/test.yaml:3:5: error: test 'x' has both 'request' and 'steps'; use one of them",
                    "suites/test.yaml:4:5: error: 'expect' belongs inside each step when test 'x' has 'steps'",
                ])
    }

    @Test func duplicateTestNames() {
        let found = diagnostics(
            """
            tests:
              - name: same
                request: {url: "http://h/"}
              - name: same
                request: {url: "http://h/"}
            """)
        #expect(
            found.map(DiagnosticRenderer.oneLine) == [
                "suites/test.yaml:4:11: error: duplicate test name 'same' (first defined at suites/test.yaml:2:11)"
            ])
        #expect(found.first?.length == 4)
        #expect(found.first?.note == "first defined at suites/test.yaml:2:11")
    }

    // MARK: - Values

    @Test func urls() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    request: {url: users}
                  - name: b
                    request: {url: "ftp://host/x"}
                  - name: c
                    request: {url: ""}
                """) == [
                    "suites/test.yaml:3:20: error: relative URL 'users' needs a 'baseURL' in the suite "
                        + "(add 'baseURL: http://host:port/' at the top level, or write an absolute http(s) URL)",
                    "suites/test.yaml:5:20: error: unsupported URL scheme 'ftp' in 'ftp://host/x'; use http or https",
                    "suites/test.yaml:7:20: error: 'url' is empty (\(ScopeChecker.emptyURLNote(false)))",
                ])
        #expect(
            errors(
                """
                baseURL: "localhost:{{ port }}"
                variables: {port: 8080}
                tests: [{name: a, request: {url: x}}]
                """) == [
                    "suites/test.yaml:1:10: error: baseURL 'localhost:{{ port }}' is not an absolute http(s) URL "
                        + "(it renders to 'localhost:8080')"
                ])
    }

    @Test func badStatus() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    request: {url: "http://h/"}
                    expect: {status: [200, 2xy, 600, 6xx]}
                  - name: b
                    request: {url: "http://h/"}
                    expect: {status: []}
                """) == [
                    "suites/test.yaml:4:28: error: invalid status '2xy'; " + statusHint,
                    "suites/test.yaml:4:33: error: invalid status '600'; " + statusHint,
                    "suites/test.yaml:4:38: error: invalid status '6xx'; " + statusHint,
                    "suites/test.yaml:7:22: error: 'status' is an empty list; give at least one code or class",
                ])
    }

    @Test func badDurations() {
        #expect(
            errors(
                """
                defaults: {timeout: 10x}
                tests:
                  - name: a
                    request: {url: "http://h/", timeout: -1}
                  - name: b
                    request: {url: "http://h/", timeout: 0s}
                """) == [
                    "suites/test.yaml:1:21: error: invalid duration '10x'; use a number with a unit (250ms, 10s, 1.5s, "
                        + "2m, 1h) or a bare number of seconds for 'timeout'",
                    "suites/test.yaml:4:42: error: a duration cannot be negative for 'timeout'",
                    "suites/test.yaml:6:42: error: 'timeout' must be longer than zero",
                ])
    }

    @Test func invalidRegex() {
        let found = diagnostics(
            """
            tests:
              - name: a
                request: {url: "http://h/"}
                expect:
                  headers: {X-Id: {matches: '^(ab$'}}
            """)
        #expect(
            found.map(DiagnosticRenderer.oneLine) == [
                "suites/test.yaml:5:33: error: invalid regular expression '^(ab$' (a '(' is not closed, at character 2)"
            ])
        #expect(found.first?.length == 7)
    }

    @Test func badJSONPathPointsInsideThePath() {
        let found = diagnostics(
            """
            tests:
              - name: a
                request: {url: "http://h/"}
                expect:
                  json:
                    $.users[0.name: alice
                    "$.a b": 1
                capture:
                  x: {jsonpath: users}
            """)
        #expect(found.count == 3)
        #expect(found[0].location == SourceLocation(file: "suites/test.yaml", line: 6, column: 18))
        #expect(found[0].message.hasPrefix("invalid JSONPath '$.users[0.name': "))
        // Inside a quoted key: the space after `$.a`, past the opening quote.
        #expect(found[1].location == SourceLocation(file: "suites/test.yaml", line: 7, column: 13))
        #expect(found[2].location == SourceLocation(file: "suites/test.yaml", line: 9, column: 21))
        #expect(found[2].message.hasPrefix("invalid JSONPath 'users': "))
    }

    @Test func twoBodies() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    request:
                      url: "http://h/"
                      json: {a: 1}
                      body: text
                      contentType: text/plain
                """) == [
                    "suites/test.yaml:6:7: error: a request takes one body; found both 'json' and 'body'",
                    "suites/test.yaml:7:7: error: 'contentType' applies to 'body' or 'bodyFile', not with 'json', "
                        + "which sets its own",
                ])
    }

    @Test func badBodyFiles() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
        let file = try writeFile(
            """
            baseURL: http://h/
            tests:
              - name: a
                request: {url: x, bodyFile: missing.json}
              - name: b
                request: {url: x, bodyFile: folder}
            """, to: "suite.yaml", in: directory)
        do {
            _ = try SuiteLoader(environment: [:]).load(path: file)
            Issue.record("expected the suite to fail")
        } catch {
            let absolute = URL(fileURLWithPath: directory + "/missing.json").standardizedFileURL.path
            #expect(
                error.oneLineSummary == """
                    \(file):4:33: error: bodyFile 'missing.json' does not exist (looked for \(absolute))
                    \(file):6:33: error: bodyFile 'folder' is a directory, not a file
                    """)
        }
    }

    @Test func templateSyntax() {
        #expect(
            errors(
                """
                baseURL: http://h/
                tests:
                  - name: a
                    request: {url: "users/{{ id", headers: {X-A: "{{}}", X-B: "{{ a b }}"}}
                """) == [
                    "suites/test.yaml:4:27: error: '{{' is not closed by '}}'",
                    "suites/test.yaml:4:51: error: empty placeholder '{{ }}'; write '{{ name }}'",
                    "suites/test.yaml:4:64: error: invalid variable name 'a b' in placeholder; names match "
                        + "[A-Za-z_][A-Za-z0-9_.-]*",
                ])
    }

    @Test func badPredicates() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    request: {url: "http://h/"}
                    expect:
                      headers:
                        X-A: {contain: x}
                        X-B: {exists: yes}
                      json:
                        $.a: {greaterThan: [10]}
                        $.b: {oneOf: 1}
                        $.c: {startsWith: 1}
                        $.d: {greaterThan: 0, lessThan: 10}
                """) == [
                    "suites/test.yaml:6:15: error: unknown predicate 'contain'; did you mean 'contains'?",
                    "suites/test.yaml:7:23: error: expected true or false for 'exists', found a string",
                    "suites/test.yaml:9:28: error: 'greaterThan' takes a number or a string, found a list",
                    "suites/test.yaml:10:22: error: 'oneOf' takes a list of at least one value, found a number",
                    "suites/test.yaml:11:27: error: 'startsWith' takes a string, found a number",
                    "suites/test.yaml:12:31: error: a check takes one predicate, found 2: 'greaterThan', 'lessThan' "
                        + "(check the same value twice with two spellings of the path ($.a and $['a']), or write "
                        + "{equals: {...}} to compare with an object)",
                ])
    }

    @Test func badCaptures() {
        #expect(
            errors(
                """
                tests:
                  - name: a
                    request: {url: "http://h/"}
                    capture:
                      a: $.x
                      b: {jsonpath: $.x, header: X}
                      c: {jsonpth: $.x}
                      env.x: {header: X}
                """) == [
                    "suites/test.yaml:5:10: error: expected a map for capture 'a', found a string "
                        + "(write {jsonpath: $.path}, {header: Name} or another query, with optional filters)",
                    "suites/test.yaml:6:26: error: capture 'b' takes one query, found 'jsonpath' and 'header'",
                    "suites/test.yaml:7:11: error: unknown key 'jsonpth' in capture 'c'; did you mean 'jsonpath'?",
                    "suites/test.yaml:8:7: error: capture names cannot start with 'env.', which names environment "
                        + "variables",
                ])
    }

    @Test func badNames() {
        #expect(
            errors(
                """
                variables: {1st: a, env.HOME: b, ok: c}
                tests:
                  - name: a
                    request: {url: "http://h/", method: "GET /", headers: {"Bad Header": x, X-Ok: [1]}}
                """) == [
                    "suites/test.yaml:1:13: error: invalid variable name '1st'; names match [A-Za-z_][A-Za-z0-9_.-]*",
                    "suites/test.yaml:1:21: error: variable names cannot start with 'env.', which names environment "
                        + "variables",
                    "suites/test.yaml:4:41: error: invalid HTTP method 'GET /'",
                    "suites/test.yaml:4:60: error: invalid header name 'Bad Header'",
                    "suites/test.yaml:4:83: error: expected a string for 'X-Ok', found a list",
                ])
    }

    // MARK: - Several at once

    @Test func reportsEveryErrorOfAFileInSourceOrder() {
        let lines = errors(
            """
            name: several
            baseURL: http://h/
            tests:
              - name: one
                request: {url: "x/{{ missing }}", method: "GE T"}
                expect: {status: abc, json: {nope: 1}}
              - name: one
                request: {url: x, timeout: soon}
            """)
        #expect(
            lines == [
                "suites/test.yaml:5:23: error: undefined variable 'missing'",
                "suites/test.yaml:5:47: error: invalid HTTP method 'GE T'",
                "suites/test.yaml:6:22: error: invalid status 'abc'; " + statusHint,
                "suites/test.yaml:6:34: error: invalid JSONPath 'nope': a JSONPath query must start with '$', "
                    + "found 'n'",
                "suites/test.yaml:7:11: error: duplicate test name 'one' (first defined at suites/test.yaml:4:11)",
                "suites/test.yaml:8:32: error: invalid duration 'soon'; use a number with a unit (250ms, 10s, 1.5s, "
                    + "2m, 1h) or a bare number of seconds for 'timeout'",
            ])
    }
}

import APITestJSON
import Foundation
import Testing

@testable import APITestSuite

/// JSONPath queries and regular expressions are compiled once, when the suite loads, and the model carries them
/// with the text as written (for messages and reports).
@Suite struct CompiledExpressionTests {
    static let yaml = """
        baseURL: http://h/
        variables: {prefix: id}
        tests:
          - name: t
            request: {url: a}
            expect:
              json: {"$['a']": 1}
              headers: {X-Id: {matches: '^id-\\d+$'}, X-Other: {matches: '^{{ prefix }}-\\d+$'}}
              assert:
                - {regex: 'n=(\\d+)-(\\d+)', group: 2, equals: "7"}
                - {query: body, filters: [{jsonpath: '$.b[*]'}, {regex: 'x(y)'}], exists: true}
                - {query: body, filters: [{replace: {pattern: '\\s+', with: ' '}}], equals: a b}
            capture:
              id: {jsonpath: $.id}
        """

    @Test func queriesFiltersAndPatternsCarryTheirCompiledForm() throws {
        let step = try loadSuite(Self.yaml).tests[0].steps[0]
        let assertions = step.expect.assertions

        guard case .jsonpath(let path) = assertions[0].query else {
            Issue.record("not a JSONPath query: \(assertions[0].query)")
            return
        }
        #expect(path.expression == "$['a']", "the path as written")
        #expect(path.isSingular)
        #expect(path.query(["a": 1, "b": 2]) == [1])
        #expect(assertions[0].subject == "$['a']")

        #expect(assertions[1].predicate == .matches)
        #expect(assertions[1].pattern?.pattern == #"^id-\d+$"#, "a literal pattern is compiled at load")
        #expect(assertions[1].pattern?.numberOfCaptureGroups == 0)
        #expect(assertions[2].pattern == nil, "a pattern with a placeholder is compiled when rendered")

        guard case .regex(let regex, let group) = assertions[3].query else {
            Issue.record("not a regex query: \(assertions[3].query)")
            return
        }
        #expect(regex.pattern == #"n=(\d+)-(\d+)"#)
        #expect(regex.numberOfCaptureGroups == 2)
        #expect(group == 2)
        #expect(assertions[3].subject == #"regex /n=(\d+)-(\d+)/ group 2"#)

        guard case .jsonpath(let filterPath) = assertions[4].filters[0],
            case .regex(let filterRegex) = assertions[4].filters[1]
        else {
            Issue.record("unexpected filters: \(assertions[4].filters)")
            return
        }
        #expect(!filterPath.isSingular)
        #expect(filterRegex.numberOfCaptureGroups == 1)
        #expect(assertions[4].subject == "body | jsonpath $.b[*] | regex /x(y)/")

        guard case .replace(let pattern, let replacement) = assertions[5].filters[0] else {
            Issue.record("unexpected filters: \(assertions[5].filters)")
            return
        }
        #expect(pattern.pattern == #"\s+"# && replacement == " ")

        guard case .jsonpath(let capturePath) = step.captures[0].query else {
            Issue.record("not a JSONPath capture: \(step.captures[0].query)")
            return
        }
        #expect(capturePath.expression == "$.id")
    }

    @Test func invalidExpressionsAreStillReportedWhereTheyAreWritten() {
        let yaml = """
            baseURL: http://h/
            tests:
              - name: t
                request: {url: a}
                expect:
                  json: {"$.a[": 1}
                  body: {matches: '(x'}
                  assert: [{regex: 'a)', equals: b}, {query: body, filters: [{replace: {pattern: '[', with: ''}}], equals: b}]
            """
        #expect(
            errors(yaml) == [
                "suites/test.yaml:6:18: error: invalid JSONPath '$.a[': expected a selector, found end of expression",
                "suites/test.yaml:7:23: error: invalid regular expression '(x' (a '(' is not closed, at character 1)",
                "suites/test.yaml:8:24: error: invalid regular expression 'a)' (a ')' has no matching '(', at character 2)",
                "suites/test.yaml:8:86: error: invalid regular expression '[' (a '[' is not closed, at character 1)",
            ])
    }

    @Test func equalExpressionsAreThoseWrittenTheSameWay() throws {
        #expect(try RegularExpression("a+") == RegularExpression("a+"))
        #expect(try RegularExpression("a+") != RegularExpression("a{1,}"))
        #expect(try RegularExpression("a+").description == "a+")
        #expect(throws: (any Error).self) { try RegularExpression("(") }
    }
}

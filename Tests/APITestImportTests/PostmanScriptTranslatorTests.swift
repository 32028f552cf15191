import APITestJSON
import APITestSuiteWriting
import Testing

@testable import APITestImport

/// The `pm.test` forms of issue 16 become checks and captures that mean what the script means; anything else is
/// listed by line, never dropped.
struct PostmanScriptTranslatorTests {
    /// The checks of a script given as lines.
    func checks(_ lines: String...) -> [JSONValue] {
        PostmanScriptTranslator.translate(lines).checks.map(\.generalForm)
    }

    @Test func statusForms() {
        #expect(
            checks("pm.test('Status code is 200', function () {", "    pm.response.to.have.status(200);", "});")
                == [["query": "status", "equals": 200]])
        #expect(checks("pm.expect(pm.response.code).to.equal(201)") == [["query": "status", "equals": 201]])
        #expect(
            checks("pm.expect(pm.response.code).to.be.oneOf([201, 202]);")
                == [["query": "status", "oneOf": [201, 202]]])
        #expect(checks("pm.response.to.be.ok") == [["query": "status", "equals": 200]])
        #expect(checks("pm.response.to.be.success") == [["query": "status", "oneOf": ["2xx"]]])
        #expect(checks("pm.response.to.not.have.status(404)") == [["query": "status", "notEquals": 404]])
        #expect(
            checks("tests[\"Status code is 200\"] = responseCode.code === 200;") == [
                ["query": "status", "equals": 200]
            ])
    }

    @Test func oneLinePmTestAndArrowFunctions() {
        #expect(
            checks("pm.test(\"ok\", () => { pm.response.to.have.status(200); pm.response.to.have.header('X-A'); });")
                == [["query": "status", "equals": 200], ["header": "X-A", "exists": true]])
        #expect(checks("pm.test('t', () => pm.response.to.have.status(204))") == [["query": "status", "equals": 204]])
    }

    @Test func jsonMembersThroughAliases() {
        let lines = [
            "var jsonData = pm.response.json();",
            "pm.test('name', function () {",
            "    pm.expect(jsonData.users[0].name).to.eql('alice');",
            "    pm.expect(jsonData['odd key']).to.equal(3);",
            "    pm.expect(jsonData.tags).to.include('a');",
            "    pm.expect(jsonData.id).to.be.a('number');",
            "    pm.expect(jsonData.items).to.have.lengthOf(2);",
            "});",
        ]
        let result = PostmanScriptTranslator.translate(lines)
        #expect(result.untranslated.isEmpty)
        #expect(
            result.checks.map(\.generalForm) == [
                ["jsonpath": "$.users[0].name", "equals": "alice"],
                ["jsonpath": "$['odd key']", "equals": 3],
                ["jsonpath": "$.tags", "type": ["string", "array"]],
                ["jsonpath": "$.tags", "contains": "a"],
                ["jsonpath": "$.id", "type": "number"],
                ["jsonpath": "$.items", "type": ["string", "array"]],
                ["jsonpath": "$.items", "filters": ["count"], "equals": 2],
            ])
    }

    @Test func chainsOverSeveralLinesAndProperty() {
        let result = PostmanScriptTranslator.translate([
            "pm.test('expect response json contain args', function () {",
            "    pm.expect(pm.response.json().args).to.have.property('source')",
            "      .and.equal('newman-sample-github-collection')",
            "})",
        ])
        #expect(result.untranslated.isEmpty)
        #expect(
            result.checks.map(\.generalForm) == [
                ["jsonpath": "$.args.source", "exists": true],
                ["jsonpath": "$.args.source", "equals": "newman-sample-github-collection"],
            ])
    }

    @Test func headersBodyAndResponseTime() {
        #expect(
            checks("pm.expect(pm.response.headers.get('Content-Type')).to.include('json')") == [
                ["header": "Content-Type", "type": ["string", "array"]],
                ["header": "Content-Type", "contains": "json"],
            ])
        #expect(checks("pm.response.to.have.header('X-B', 'v')") == [["header": "X-B", "equals": "v"]])
        #expect(
            checks("pm.expect(pm.response.responseTime).to.be.below(200);")
                == [["query": "duration", "lessThan": 200]])
        #expect(
            checks("pm.expect(pm.response.text()).to.include('ok')")
                == [["query": "body", "type": ["string", "array"]], ["query": "body", "contains": "ok"]])
        #expect(
            checks("pm.expect(pm.response.json().count).to.be.above(0)")
                == [["jsonpath": "$.count", "type": "number"], ["jsonpath": "$.count", "greaterThan": 0]])
    }

    @Test func captures() {
        let result = PostmanScriptTranslator.translate([
            "var data = JSON.parse(responseBody);",
            "pm.environment.set(\"token\", data.token);",
            "pm.collectionVariables.set('location', pm.response.headers.get('Location'));",
            "postman.setEnvironmentVariable('id', pm.response.json().user.id);",
        ])
        #expect(result.untranslated.isEmpty)
        #expect(
            result.captures == [
                ScriptCapture(name: "token", query: .jsonpath("$.token")),
                ScriptCapture(name: "location", query: .header("Location")),
                ScriptCapture(name: "id", query: .jsonpath("$.user.id")),
            ])
    }

    @Test func whatDoesNotMeanTheSameIsListedByLine() {
        let lines = [
            "pm.test('checks', function () {",
            "    pm.expect(pm.response.json().a).to.equal({b: 1});", // JavaScript compares objects by reference
            "    pm.expect(pm.response.json().flag).to.be.ok;", // truthiness
            "",
            "    // a comment",
            "    if (pm.response.code === 200) {",
            "        console.log('x');",
            "    }",
            "    pm.response.to.have.status(200);",
            "});",
            "pm.environment.set('constant', 'alpha');",
            "pm.expect(x).to.equal(`a${b}`);",
        ]
        let result = PostmanScriptTranslator.translate(lines)
        #expect(result.checks.map(\.generalForm) == [["query": "status", "equals": 200]])
        #expect(
            result.untranslated == [
                ScriptLine(number: 2, text: "pm.expect(pm.response.json().a).to.equal({b: 1});"),
                ScriptLine(number: 3, text: "pm.expect(pm.response.json().flag).to.be.ok;"),
                ScriptLine(number: 6, text: "if (pm.response.code === 200) {"),
                ScriptLine(number: 7, text: "console.log('x');"),
                ScriptLine(number: 8, text: "}"),
                ScriptLine(number: 11, text: "pm.environment.set('constant', 'alpha');"),
                ScriptLine(number: 12, text: "pm.expect(x).to.equal(`a${b}`);"),
            ])
    }

    @Test func aFailedStatementTranslatesNothingOfIt() {
        // The first check could be translated, the second cannot: neither is kept, the line is listed.
        let result = PostmanScriptTranslator.translate(["pm.expect(pm.response.json().a).to.be.a('string').and.be.ok"])
        #expect(result.checks.isEmpty)
        #expect(result.untranslated.count == 1)
    }

    @Test func negationsAndRegularExpressions() {
        #expect(checks("pm.expect(pm.response.json().x).to.not.eql(1)") == [["jsonpath": "$.x", "notEquals": 1]])
        #expect(
            checks("pm.expect(pm.response.json().name).to.match(/^al/i)")
                == [["jsonpath": "$.name", "type": "string"], ["jsonpath": "$.name", "matches": "(?i)^al"]])
        #expect(
            checks("pm.expect(pm.response.json().gone).to.be.undefined") == [["jsonpath": "$.gone", "notExists": true]])
        #expect(
            checks("pm.expect(pm.response.json()).to.not.have.property('secret')")
                == [["jsonpath": "$.secret", "notExists": true]])
        #expect(
            checks("pm.expect(pm.response.json().n).to.be.within(1, 5)")
                == [["jsonpath": "$.n", "type": "number"], ["jsonpath": "$.n", "between": [1, 5]]])
    }
}

extension PostmanScriptTranslatorTests {
    @Test func strayClosingBracketsAreListedAndReadingGoesOn() {
        let result = PostmanScriptTranslator.translate(["});", ")", "]", "pm.response.to.have.status(200);", "}"])
        #expect(result.checks.map(\.generalForm) == [["query": "status", "equals": 200]])
        #expect(result.untranslated.map(\.number) == [1, 2, 3, 5])
    }
}

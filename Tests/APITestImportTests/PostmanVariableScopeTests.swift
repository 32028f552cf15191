import APITestSuiteWriting
import Testing

@testable import APITestImport

/// Postman's scopes (global < collection < environment < local), names apitest cannot spell, secrets, undefined
/// names and dynamic variables.
struct PostmanVariableScopeTests {
    @Test func theNarrowestScopeWinsAndLocalValuesAreWrittenIn() {
        var scope = PostmanVariableScope(
            globals: [PostmanVariable(key: "host", value: "global"), PostmanVariable(key: "g", value: "1")],
            collection: [
                PostmanVariable(key: "host", value: "collection"), PostmanVariable(key: "unused", value: "x"),
            ],
            environment: [PostmanVariable(key: "host", value: "environment")])
        #expect(scope.convert("{{host}}/{{g}}/{{id}}", local: ["id": "{{g}}7"]) == "{{ host }}/{{ g }}/{{ g }}7")
        let variables = scope.suiteVariables()
        #expect(variables.map(\.name) == ["host", "g"])
        #expect(variables.map(\.value) == ["environment", "1"])
    }

    @Test func variablesComeAfterTheVariablesTheyUse() {
        var scope = PostmanVariableScope(
            globals: [], collection: [PostmanVariable(key: "url", value: "{{scheme}}://{{host}}")],
            environment: [PostmanVariable(key: "host", value: "h"), PostmanVariable(key: "scheme", value: "https")])
        _ = scope.convert("{{url}}/x")
        #expect(scope.suiteVariables().map(\.name) == ["host", "scheme", "url"])
    }

    @Test func renamesSecretsUndefinedAndDynamicVariables() {
        var scope = PostmanVariableScope(
            globals: [PostmanVariable(key: "Global Foo", value: "a"), PostmanVariable(key: "Global_Foo", value: "b")],
            collection: [PostmanVariable(key: "apiToken", value: "t0ken", isSecret: true)], environment: [])
        #expect(
            scope.convert(
                "{{Global Foo}} {{Global_Foo}} {{apiToken}} {{missing}} {{$guid}} {{$randomColor}} {{$timestamp}}")
                == "{{ Global_Foo_2 }} {{ Global_Foo }} {{ apiToken }} {{ missing }} {{ random.uuid }} {{ randomColor }} {{ now.unix }}"
        )
        let variables = scope.suiteVariables()
        #expect(
            variables.map { "\($0.name)=\($0.value)" } == [
                "Global_Foo_2=a", "Global_Foo=b", "apiToken={{ env.API_TOKEN }}", "missing=",
                "randomColor={{ random.hex }}",
            ])
        #expect(scope.notes.map(\.location).contains("variable 'Global Foo'"))
        #expect(scope.notes.map(\.location).contains("variable 'missing'"))
        #expect(scope.notes.map(\.location).contains("{{$randomColor}}"))
        #expect(PostmanVariableScope.environmentName(for: "x-api key2") == "X_API_KEY2")
    }

    @Test func textWithoutPlaceholdersOrWithStrayBracesIsSentAsItIs() {
        var scope = PostmanVariableScope(globals: [], collection: [], environment: [])
        #expect(scope.convert("plain") == "plain")
        // A stray `{{` is data: escaped, so that the suite sends it as Postman does.
        #expect(scope.convert("{{ {{a}}") == "{{ '{' }}{ {{ a }}")
        #expect(scope.convert("a {{b") == "a {{ '{' }}{b")
        #expect(scope.convert("{{ {{a}}", escaping: false) == "{{ {{ a }}")
    }
}
